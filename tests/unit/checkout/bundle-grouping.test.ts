import { describe, expect, test } from 'vitest';
import { bundleLinesOf, groupCartItems } from '../../../src/lib/bundle-grouping.ts';
import { itemTitle } from '../../../src/lib/item-title.ts';
import { emptyCart, kitchenSink } from './fixtures/carts.ts';

describe('groupCartItems', () => {
  test('lines sharing a bundle_id become one bundle entry and the others product entries', () => {
    const entries = groupCartItems(kitchenSink.cartItems);
    expect(entries.map((e) => e.type)).toEqual(['product', 'bundle', 'product']);
    const bundle = entries[1];
    if (bundle?.type !== 'bundle') throw new Error('expected a bundle entry');
    expect(bundle.items.map((i) => i.id)).toEqual(['l-2', 'l-4']);
    expect(bundle.name).toBe('Starter kit');
    expect(bundle.quantity).toBe(2);
    expect(bundle.images).toEqual([{ id: 'img-b1', url: '/images/starter.jpg' }]);
  });

  test('a bundle total is the sum of its item prices', () => {
    const bundle = groupCartItems(kitchenSink.cartItems).find((e) => e.type === 'bundle');
    expect(bundle?.type === 'bundle' && bundle.total).toBe('15.00');
  });

  test('entries keep the order of their first line in the cart', () => {
    const entries = groupCartItems(kitchenSink.cartItems);
    expect(entries.map((e) => e.key)).toEqual(['l-1', 'bundle-b-1', 'l-3']);
  });

  test('an empty cart has no entries', () => {
    expect(groupCartItems(emptyCart.cartItems)).toEqual([]);
  });
});

describe('bundleLinesOf', () => {
  test('any line of a bundle gives all of the bundle lines', () => {
    expect(bundleLinesOf(kitchenSink.cartItems, 'l-4').map((i) => i.id)).toEqual(['l-2', 'l-4']);
  });

  test('a product line gives itself alone', () => {
    expect(bundleLinesOf(kitchenSink.cartItems, 'l-3').map((i) => i.id)).toEqual(['l-3']);
  });
});

test("a line is titled with its variant, except a product's only variant ('Default')", () => {
  expect(itemTitle({ name: 'Classic Tee', variant_name: 'M / Navy' })).toBe('Classic Tee (M / Navy)');
  expect(itemTitle({ name: 'Mug', variant_name: 'Default' })).toBe('Mug');
  expect(itemTitle({ name: 'Mug', variant_name: '' })).toBe('Mug');
});
