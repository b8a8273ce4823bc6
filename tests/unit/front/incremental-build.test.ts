import { describe, expect, test } from 'vitest';
import { newRecord, type BuildRecord } from '../../../src/front/build-record.ts';
import { liveBuildReuse, recordedCatalog } from '../../../src/front/incremental-build.ts';
import { inputsHash } from '../../../src/front/page-inputs.ts';

const S = '/api/store_front/acme';

/** A live build's record of one page reading `reads`, each answer hashed as `hashes` says. */
function recordOf(hashes: Record<string, string>): BuildRecord {
  const record = newRecord('code', { changesStart: '100', stores: ['acme'] });
  record.keys = Object.keys(hashes);
  record.hashes = Object.values(hashes);
  record.pages['/acme/page'] = {
    files: ['acme/page/index.html'],
    reads: record.keys.map((_, index) => index),
    inputs: inputsHash(record.keys, (key) => hashes[key]),
    content: 'c',
    images: [],
  };
  return record;
}

/** Which of a page's reads are asked for again, with `written` the products and bundles written since. */
async function asked(hashes: Record<string, string>, written: { products: number[]; bundles: number[] }) {
  const calls: string[] = [];
  const reuse = liveBuildReuse(
    '/builds/live',
    recordOf(hashes),
    async (key) => {
      calls.push(key);
      return hashes[key]!;
    },
    { products: new Set(written.products), bundles: new Set(written.bundles) },
  );
  expect(await reuse.unchanged('/acme/page')).not.toBeNull();
  return calls;
}

describe('a build from the catalog changes (docs/decisions/225-publish-from-catalog-changes.md)', () => {
  test("asks for the answers of written products and bundles, the store's and the lists; takes the others", async () => {
    const calls = await asked(
      {
        [S]: 'store',
        [`${S}/products/1`]: 'p1',
        [`${S}/products/1/product_variants`]: 'v1',
        [`${S}/products/2`]: 'p2',
        [`${S}/products/2/collections`]: 'c2',
        [`${S}/bundles/7`]: 'b7',
        [`${S}/bundles/8/bundle_items`]: 'i8',
        [`${S}/products?page=1&per_page=500&sort=name`]: 'list',
        [`${S}/listings?page=1&per_page=48`]: 'listing',
      },
      { products: [2], bundles: [8] },
    );
    expect(calls.sort()).toEqual(
      [
        S,
        `${S}/products/2`,
        `${S}/products/2/collections`,
        `${S}/bundles/8/bundle_items`,
        `${S}/products?page=1&per_page=500&sort=name`,
        `${S}/listings?page=1&per_page=48`,
      ].sort(),
    );
  });

  test('takes lists of ids in an order the catalog’s shape decides, and asks for those ordered by price', async () => {
    const calls = await asked(
      {
        [`${S}/products?page=1&per_page=500&sort=name&fields=id`]: 'by name',
        [`${S}/bundles?page=2&per_page=500&sort=-name&fields=id`]: 'by name, down',
        [`${S}/products?featured=true&fields=id`]: 'featured',
        [`${S}/products?sort=price&fields=id`]: 'by price',
        [`${S}/bundles?sort=-price&fields=id`]: 'by price, down',
      },
      { products: [], bundles: [] },
    );
    expect(calls.sort()).toEqual([`${S}/bundles?sort=-price&fields=id`, `${S}/products?sort=price&fields=id`].sort());
  });

  test('asks again for an answer the live build got two ways, or never read', async () => {
    const calls = await asked(
      { [`${S}/products/1`]: 'changed:a:b', [`${S}/products/2`]: 'unread:404', [`${S}/products/3`]: 'p3' },
      { products: [], bundles: [] },
    );
    expect(calls.sort()).toEqual([`${S}/products/1`, `${S}/products/2`]);
  });

  test("lists each store's products and bundles from the live build's pages", () => {
    const record = newRecord('code', { changesStart: '1', stores: ['acme', 'empty'] });
    for (const page of ['/acme', '/acme/product/3', '/acme/product/1', '/acme/product-bundle/9', '/acme/sitemap.xml'])
      record.pages[page] = { files: [], reads: [], inputs: null, content: null, images: [] };
    expect(recordedCatalog(record)).toEqual(
      new Map([
        ['acme', { products: ['3', '1'], bundles: ['9'] }],
        ['empty', { products: [], bundles: [] }],
      ]),
    );
  });
});
