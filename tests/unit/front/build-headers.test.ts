import { describe, expect, test } from 'vitest';
import { buildFileHeaders, headersFile, urlPathsOf } from '../../../src/front/build-headers.ts';
import { headersFor } from '../../api/support/headers-file.ts';

const DOCUMENT = { 'content-security-policy': "default-src 'self'" };

/** A small build: a store's pages and payloads beside assets, public images, a derivative and media. */
const FILES: [string, string][] = [
  ['acme/index.html', 'text/html; charset=utf-8'],
  ['acme/shop/index.html', 'text/html; charset=utf-8'],
  ['acme/shop/_payload.json', 'application/json; charset=utf-8'],
  ['acme/product/tee/index.html', 'text/html; charset=utf-8'],
  ['acme/product/tee/_payload.json', 'application/json; charset=utf-8'],
  ['acme/product/mug/index.html', 'text/html; charset=utf-8'],
  ['acme/product/mug/_payload.json', 'application/json; charset=utf-8'],
  ['acme/media/logo.svg', 'image/svg+xml'],
  ['_derivatives/acme/media/logo.svg.w320.webp', 'image/webp'],
  ['_astro/app.1a2b.js', 'text/javascript; charset=utf-8'],
  ['_astro/logo.3c4d.svg', 'image/svg+xml'],
  ['images/tee.svg', 'image/svg+xml'],
  ['_derivatives/images/tee.svg.w320.avif', 'image/avif'],
  ['favicon.svg', 'image/svg+xml'],
  ['builds/latest.json', 'application/json; charset=utf-8'],
];

const files = FILES.map(([file, type]) => ({
  urls: urlPathsOf(file),
  headers: buildFileHeaders(urlPathsOf(file)[0]!, type, DOCUMENT),
}));

describe('the _headers file of a build', () => {
  const text = headersFile(files);

  test('every URL of every file gets exactly the headers the front sends, each header once', () => {
    for (const { urls, headers } of files) for (const url of urls) expect(headersFor(text, url), url).toEqual(headers);
  });

  test('pages share rules by their shape instead of one rule each', () => {
    expect(text).toContain('/acme/product/:p2\n');
    expect(text).not.toContain('/acme/product/tee\n');
    expect(text).toContain('/:p0/:p1/:p2/_payload.json\n');
    // Derivatives keep their own folder, so one rule covers each original's folder of them.
    expect(text).toContain('/_derivatives/images/*\n');
  });

  test('hashed assets are immutable, pages revalidate, media keep their own policy, documents carry the policy', () => {
    expect(headersFor(text, '/_astro/app.1a2b.js')['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(headersFor(text, '/acme/shop/')['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(headersFor(text, '/acme/shop')['content-security-policy']).toBe(DOCUMENT['content-security-policy']);
    expect(headersFor(text, '/acme/shop/_payload.json')['content-security-policy']).toBeUndefined();
    expect(headersFor(text, '/_derivatives/acme/media/logo.svg.w320.webp')['cache-control']).toBe(
      'public, max-age=300',
    );
    expect(headersFor(text, '/_derivatives/images/tee.svg.w320.avif')['cache-control']).toBe('public, max-age=3600');
  });

  test('slugs that begin alike keep their own folders: a rule for one never covers the other', () => {
    // `tee-shirt` sorts before `tee/`, so URLs under `/acme/product/tee/` are one run only by prefix.
    const mixed = ['tee', 'tee-shirt', 'tee.v2', 'teeth'].flatMap((slug) => [
      { urls: urlPathsOf(`acme/product/${slug}/index.html`), headers: { 'cache-control': 'page' } },
      { urls: urlPathsOf(`acme/product/${slug}/_payload.json`), headers: { 'cache-control': `data of ${slug}` } },
    ]);
    const rules = headersFile(mixed);
    for (const { urls, headers } of mixed) for (const url of urls) expect(headersFor(rules, url), url).toEqual(headers);
  });

  test("the last build's rules serve the next only while they still give every URL its headers", () => {
    const page = { 'cache-control': 'page' };
    const data = { 'cache-control': 'data' };
    const product = (slug: string, payload: Record<string, string>) => [
      { urls: urlPathsOf(`acme/product/${slug}/index.html`), headers: page },
      { urls: urlPathsOf(`acme/product/${slug}/_payload.json`), headers: payload },
    ];
    const expectEachUrlItsOwn = (build: { urls: string[]; headers: Record<string, string> }[]) => {
      const text = headersFile(build);
      for (const { urls, headers } of build)
        for (const url of urls) expect(headersFor(text, url), url).toEqual(headers);
      return text;
    };
    const first = expectEachUrlItsOwn([...product('tee', data), ...product('mug', data)]);
    // One product more: the rules hold.
    expect(expectEachUrlItsOwn([...product('tee', data), ...product('mug', data), ...product('cap', data)])).toBe(
      first,
    );
    // A payload answered otherwise: they no longer hold, and are made again.
    expectEachUrlItsOwn([...product('tee', data), ...product('mug', { 'cache-control': 'other' })]);
    // One product fewer.
    expectEachUrlItsOwn([...product('tee', data)]);
  });

  test('a catalog of 100,000 products gets its file: more URLs than a call takes as arguments', () => {
    const page = { 'cache-control': 'page' };
    const many = Array.from({ length: 200_000 }, (_, i) => ({ urls: [`/acme/product/${i}/`], headers: page }));
    expect(headersFile(many)).toBe('/acme/*\n  cache-control: page\n');
  });
});
