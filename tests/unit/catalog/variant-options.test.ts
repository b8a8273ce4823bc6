import { describe, expect, test } from 'vitest';
import type { VariantView } from '../../../src/lib/catalog/catalog-card.ts';
import { galleryForVariant, orderGallery } from '../../../src/lib/catalog/catalog-card.ts';
import {
  choose,
  findVariant,
  initialSelection,
  isValueAvailable,
  optionValues,
} from '../../../src/lib/catalog/variant-options.ts';

const names = ['Size', 'Color'];
const v = (id: string, Size: string, Color: string, available = true): VariantView => ({
  id,
  name: `${Size} / ${Color}`,
  options: { Size, Color },
  price: '1.00',
  available,
  stock: available ? 10 : 0,
});
const shirt = [v('s-red', 'S', 'Red'), v('m-red', 'M', 'Red', false), v('m-blue', 'M', 'Blue')];

describe('variant choice', () => {
  test('each option offers its values in the order variants list them', () => {
    expect(optionValues(shirt, names)).toEqual({ Size: ['S', 'M'], Color: ['Red', 'Blue'] });
  });

  test('the page opens on the first available variant', () => {
    expect(initialSelection([v('x', 'S', 'Red', false), ...shirt.slice(1)])).toEqual({ Size: 'M', Color: 'Blue' });
  });

  test('a page opened with ?variant=ID opens on that variant, even a sold-out one; an unknown id is ignored', () => {
    expect(initialSelection(shirt, 'm-red')).toEqual({ Size: 'M', Color: 'Red' });
    expect(initialSelection(shirt, 'gone')).toEqual({ Size: 'S', Color: 'Red' });
    expect(initialSelection(shirt, null)).toEqual({ Size: 'S', Color: 'Red' });
  });

  test('a full choice names exactly one variant', () => {
    expect(findVariant(shirt, names, { Size: 'M', Color: 'Blue' })?.id).toBe('m-blue');
    expect(findVariant(shirt, names, { Size: 'S', Color: 'Blue' })).toBeNull();
  });

  test('a value leading only to sold-out variants is marked unavailable', () => {
    expect(isValueAvailable(shirt, names, { Size: 'S', Color: 'Red' }, 'Size', 'M')).toBe(false);
    expect(isValueAvailable(shirt, names, { Size: 'S', Color: 'Blue' }, 'Size', 'M')).toBe(true);
  });

  test('choosing a value that breaks the other choices moves to the closest available variant', () => {
    expect(choose(shirt, names, { Size: 'M', Color: 'Blue' }, 'Size', 'S')).toEqual({ Size: 'S', Color: 'Red' });
    expect(choose(shirt, names, { Size: 'M', Color: 'Blue' }, 'Color', 'Red')).toEqual({ Size: 'M', Color: 'Red' });
  });

  test('a product without options uses its only variant', () => {
    expect(findVariant([v('only', '', '')], [], {})?.id).toBe('only');
  });
});

describe('gallery order', () => {
  const images = [
    { id: 'a', url: '/a' },
    { id: 'b', url: '/b' },
    { id: 'c', url: '/c' },
  ];
  test('the default image comes first, the others keep their order', () => {
    expect(orderGallery(images, 'c').map((i) => i.id)).toEqual(['c', 'a', 'b']);
  });
  test('an unknown or missing default keeps the order', () => {
    expect(orderGallery(images, 'zz').map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(orderGallery(images, null).map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });
  test('a chosen variant’s own images come first in gallery order, the others keep theirs', () => {
    expect(galleryForVariant(images, ['c', 'b']).map((i) => i.id)).toEqual(['b', 'c', 'a']);
    expect(galleryForVariant(images, []).map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });
});
