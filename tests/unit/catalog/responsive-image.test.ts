import { describe, expect, test } from 'vitest';
import {
  DERIVATIVE_WIDTHS,
  IMAGE_SLOTS,
  derivativeUrl,
  derivativeUrlsIn,
  hasDerivatives,
  parseDerivativeQuery,
  pictureSources,
  shareImageUrl,
} from '../../../src/lib/responsive-image.ts';

describe('which images get derivatives', () => {
  test.each([
    '/images/demo/classic-tee-1.svg',
    '/vip/media/watch-1.PNG',
    '/acme/media/photo.jpeg',
    '/x.webp',
    '/y.avif',
  ])('%s, a local image sharp reads, does', (url) => expect(hasDerivatives(url)).toBe(true));
  test.each([
    ['an external URL', 'https://cdn.example.com/tee.jpg'],
    ['a protocol-relative URL', '//cdn.example.com/tee.jpg'],
    ['a GIF (may be animated)', '/images/spinner.gif'],
    ['an icon', '/favicon.ico'],
    ['a URL with its own query', '/images/tee.png?v=2'],
    ['a path with dot segments', '/images/../secret.png'],
    ['no extension', '/images/tee'],
  ])('%s is shown as it is', (_, url) => expect(hasDerivatives(url)).toBe(false));
});

test('a card image is offered as AVIF then WebP at the card widths, with the card sizes', () => {
  const sources = pictureSources('/images/demo/mug-1.svg', 'card');
  expect(sources.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
  expect(sources[0]!.srcset).toBe(
    '/images/demo/mug-1.svg?w=320&fm=avif 320w, /images/demo/mug-1.svg?w=640&fm=avif 640w',
  );
  expect(IMAGE_SLOTS.card.sizes).toContain('50vw');
});

test('an external image gets no sources: the page shows the original alone', () => {
  expect(pictureSources('https://cdn.example.com/tee.jpg', 'gallery')).toEqual([]);
});

describe('a derivative request', () => {
  const query = (search: string) => parseDerivativeQuery(new URLSearchParams(search));

  test('is read from w and fm', () => expect(query('w=640&fm=webp')).toEqual({ width: 640, format: 'webp' }));
  test('is absent without w and fm (the original is asked for)', () => expect(query('')).toBeNull());
  test.each([
    'w=641&fm=avif',
    'w=640&fm=png',
    'w=640',
    'fm=avif',
    'w=-1&fm=avif',
    'w=640&fm=avif&x=1',
    'w=1e9&fm=avif',
  ])('%s is refused: only the widths and formats the pages offer are made', (search) =>
    expect(query(search)).toBe('invalid'),
  );
  test('every width a slot offers is one the front makes', () => {
    for (const slot of Object.values(IMAGE_SLOTS)) for (const w of slot.widths) expect(DERIVATIVE_WIDTHS).toContain(w);
    expect(query(new URL(derivativeUrl('/a.svg', 960, 'avif'), 'http://x').search.slice(1))).toEqual({
      width: 960,
      format: 'avif',
    });
  });
});

test('the build finds the derivatives a page offers, once each, with its HTML escaping undone', () => {
  const html =
    '<picture><source type="image/avif" srcset="/a.svg?w=320&amp;fm=avif 320w, /a.svg?w=640&amp;fm=avif 640w" sizes="50vw">' +
    '<img src="/a.svg" srcset="/a.svg?w=320&amp;fm=avif 320w"></picture><img src="https://cdn.example.com/b.jpg">' +
    '<img srcset="/plain-2x.png 2x">';
  expect(derivativeUrlsIn(html)).toEqual(['/a.svg?w=320&fm=avif', '/a.svg?w=640&fm=avif']);
});

test('a link preview gets a local image as a wide WebP, an external one as it is', () => {
  expect(shareImageUrl('/images/demo/acme-hero.svg')).toBe('/images/demo/acme-hero.svg?w=1280&fm=webp');
  expect(shareImageUrl('https://cdn.example.com/tee.jpg')).toBe('https://cdn.example.com/tee.jpg');
});
