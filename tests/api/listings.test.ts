import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decimalToCents } from '../../src/lib/money.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

type Entry = {
  id: string;
  type: 'product' | 'bundle';
  attributes: { name: string; price: string; available: boolean };
};
const list = async (query: string) => {
  const res = await api.call('GET', `/store_front/acme/listings?${query}`);
  expect(res.status).toBe(200);
  return res.body as { data: Entry[]; meta: { total: number } };
};

describe('products and bundles listed together', () => {
  test('sorted by price, bundles sit among products by their own price', async () => {
    const { data, meta } = await list('sort=-price&per_page=100');
    const prices = data.map((e) => decimalToCents(e.attributes.price));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const kinds = data.map((e) => e.type);
    expect(kinds).toContain('bundle');
    // Not all bundles first: at least one product is dearer than some bundle.
    expect(kinds.indexOf('product')).toBeLessThan(kinds.lastIndexOf('bundle'));
    const products = (await api.call('GET', '/store_front/acme/products?per_page=100')).body.meta.total as number;
    const bundles = (await api.call('GET', '/store_front/acme/bundles?per_page=100')).body.meta.total as number;
    expect(meta.total).toBe(products + bundles);
  });

  test('sorted by name, one alphabet across both', async () => {
    const { data } = await list('sort=name&per_page=100');
    const names = data.map((e) => e.attributes.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  test('pages cover every entry once', async () => {
    const seen = new Set<string>();
    const { meta } = await list('sort=price&per_page=7');
    for (let page = 1; page <= Math.ceil(meta.total / 7); page++) {
      for (const e of (await list(`sort=price&per_page=7&page=${page}`)).data) seen.add(`${e.type}:${e.id}`);
    }
    expect(seen.size).toBe(meta.total);
  });

  test('a search matches products and bundles alike', async () => {
    const { data } = await list('q=coffee&per_page=100');
    expect(new Set(data.map((e) => e.type))).toEqual(new Set(['product', 'bundle']));
    for (const e of data) expect(e.attributes.name.toLowerCase()).toContain('coffee');
  });

  test("a restricted store's listing needs access", async () => {
    expect((await api.call('GET', '/store_front/vip/listings')).status).toBe(422);
  });
});

describe('a listing entry', () => {
  // The listing reads its entries in one statement of its own (docs/decisions/224-listing-entries-in-one-statement.md):
  // each must still be what the product's or bundle's own answer says.
  test("is the product's or bundle's own answer, for every entry of the store", async () => {
    // What the entries show beyond a row of their own: variants sold out and withdrawn, a default image
    // that is not the first, a bundle whose item is sold out.
    const store = await api.db.selectFrom('stores').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow();
    const variants = await api.db
      .selectFrom('product_variants as v')
      .innerJoin('products as p', 'p.id', 'v.product_id')
      .select(['v.id', 'v.product_id'])
      .where('p.store_id', '=', store.id)
      .orderBy('v.id')
      .execute();
    const several = [...Map.groupBy(variants, (v) => v.product_id).values()].find((ofOne) => ofOne.length >= 3)!;
    await api.db.updateTable('product_variants').set({ stock: 0 }).where('id', '=', several[0]!.id).execute();
    // Withdrawn and the cheapest: shown, it would be the product's price.
    await api.db
      .updateTable('product_variants')
      .set({ deactivated_at: new Date(), price_cents: 1 })
      .where('id', '=', several.at(-1)!.id)
      .execute();
    const images = await api.db
      .selectFrom('product_images as i')
      .innerJoin('products as p', 'p.id', 'i.product_id')
      .select(['i.id', 'i.product_id'])
      .where('p.store_id', '=', store.id)
      .orderBy('i.position', 'desc')
      .execute();
    const gallery = [...Map.groupBy(images, (i) => i.product_id).values()].find((ofOne) => ofOne.length >= 2)!;
    await api.db
      .updateTable('products')
      .set({ default_image_id: gallery[0]!.id })
      .where('id', '=', gallery[0]!.product_id)
      .execute();
    const item = await api.db
      .selectFrom('bundle_items as bi')
      .innerJoin('bundles as b', 'b.id', 'bi.bundle_id')
      .select('bi.product_variant_id')
      .where('b.store_id', '=', store.id)
      .orderBy('bi.id')
      .executeTakeFirstOrThrow();
    await api.db.updateTable('product_variants').set({ stock: 0 }).where('id', '=', item.product_variant_id).execute();

    const { data, meta } = await list('sort=name&per_page=500');
    expect(data).toHaveLength(meta.total);
    expect(new Set(data.map((e) => e.type))).toEqual(new Set(['product', 'bundle']));
    for (const entry of data) {
      const own = await api.call('GET', `/store_front/acme/${entry.type}s/${entry.id}`);
      expect(own.status).toBe(200);
      expect(entry).toEqual(own.body.data);
    }
    expect(data.some((e) => e.type === 'bundle' && !e.attributes.available)).toBe(true);
  });
});
