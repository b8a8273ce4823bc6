import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { importCatalog } from '../../src/server/catalog/import.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';
const vip = { headers: { 'allowed-recipient-token': VIP_UUID } };

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

type Entry = { id: string; type: 'product' | 'bundle'; attributes: { name: string; price: string } };
const listings = async (path: string) => {
  const res = await api.call('GET', path);
  expect(res.status, path).toBe(200);
  return res.body as { data: Entry[]; meta: { total: number; page: number; perPage: number } };
};

describe('collections (ADR 190)', () => {
  test("a store's collections are listed in its order, and store info names them for links", async () => {
    const res = await api.call('GET', '/store_front/acme/collections');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { attributes: { handle: string } }) => c.attributes.handle)).toEqual([
      'apparel',
      'footwear',
      'accessories',
      'home',
      'bundles',
    ]);
    expect(res.body.data[0]).toMatchObject({
      type: 'collection',
      attributes: { handle: 'apparel', title: 'Apparel', description: expect.any(String) },
    });
    const info = await api.call('GET', '/store_front/acme');
    expect(info.body.data.attributes.collections).toContainEqual({ handle: 'footwear', title: 'Footwear' });
  });

  test('one collection by its handle, and its products and bundles in its own order', async () => {
    const one = await api.call('GET', '/store_front/acme/collections/apparel');
    expect(one.status).toBe(200);
    expect(one.body.data.attributes).toMatchObject({ handle: 'apparel', title: 'Apparel' });
    const { data, meta } = await listings('/store_front/acme/collections/apparel/listings');
    expect(data.map((e) => `${e.type}:${e.attributes.name}`)).toEqual([
      'product:Classic Cotton Tee',
      'product:Trail Hoodie',
      'product:Merino Wool Beanie',
      'bundle:Weekend Outdoors Pack',
    ]);
    expect(meta).toMatchObject({ total: 4, page: 1, perPage: 48 });
  });

  test("a collection's items sort, search and page like the shop's list", async () => {
    const { data } = await listings('/store_front/acme/collections/home/listings?sort=-price&per_page=100');
    const prices = data.map((e) => Number(e.attributes.price));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(new Set(data.map((e) => e.type))).toEqual(new Set(['product', 'bundle']));

    const seen = new Set<string>();
    const { meta } = await listings('/store_front/acme/collections/home/listings?sort=name&per_page=4');
    for (let page = 1; page <= Math.ceil(meta.total / 4); page++) {
      const pageData = await listings(`/store_front/acme/collections/home/listings?sort=name&per_page=4&page=${page}`);
      for (const e of pageData.data) seen.add(`${e.type}:${e.id}`);
    }
    expect(seen.size).toBe(meta.total);
    expect(meta.total).toBe(9);

    const coffee = await listings('/store_front/acme/collections/home/listings?q=coffee');
    expect(coffee.data.map((e) => e.attributes.name).sort()).toEqual([
      'Morning Coffee Kit',
      'Pour-Over Coffee Set',
      'Single-Origin Coffee Beans',
    ]);
  });

  test('a product can be in several collections', async () => {
    const names = async (handle: string) =>
      (await listings(`/store_front/acme/collections/${handle}/listings`)).data.map((e) => e.attributes.name);
    expect(await names('apparel')).toContain('Merino Wool Beanie');
    expect(await names('accessories')).toContain('Merino Wool Beanie');
  });

  test('an unknown handle is 404 with the error body, and a bad query is 422', async () => {
    for (const path of [
      '/store_front/acme/collections/nothing-here',
      '/store_front/acme/collections/nothing-here/listings',
      '/store_front/acme/collections/Not%20A%20Handle',
    ]) {
      const res = await api.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ message: 'Record not found' });
    }
    const bad = await api.call('GET', '/store_front/acme/collections/home/listings?sort=colour');
    expect(bad.status).toBe(422);
  });

  test("another store's collection is not reachable through this store", async () => {
    // `timepieces` is the restricted store's only; `accessories` exists in both, each with its own members.
    expect((await api.call('GET', '/store_front/acme/collections/timepieces')).status).toBe(404);
    expect((await api.call('GET', '/store_front/acme/collections/timepieces/listings')).status).toBe(404);
    const acme = await listings('/store_front/acme/collections/accessories/listings?per_page=100');
    expect(acme.data.map((e) => e.attributes.name).join()).not.toMatch(/VIP/);
  });

  test("a restricted store's collections are refused without access and open with it, never cached", async () => {
    for (const path of [
      '/store_front/vip/collections',
      '/store_front/vip/collections/timepieces',
      '/store_front/vip/collections/timepieces/listings',
    ]) {
      const refused = await api.call('GET', path);
      expect(refused.status, path).toBe(422);
      expect(refused.body.message, path).toBe('The store has restricted access. Please contact Admin.');
      const allowed = await api.call('GET', path, vip);
      expect(allowed.status, path).toBe(200);
      expect(allowed.headers.get('cache-control'), path).toBe('private, no-store');
      expect(allowed.headers.get('etag'), path).toBeNull();
    }
    const items = await api.call('GET', '/store_front/vip/collections/accessories/listings', vip);
    expect(items.body.data.map((e: Entry) => e.attributes.name)).toEqual([
      'VIP Reserve Leather Wallet',
      'VIP Reserve Cashmere Scarf',
    ]);
  });
});

describe('collections in the import format', () => {
  const base = {
    store: { slug: 'collected', title: 'Collected' },
    products: [
      { id: 'mug', name: 'Mug', variants: [{ sku: 'MUG', name: 'Default', price: '9.00', stock: 3 }] },
      { id: 'pot', name: 'Pot', variants: [{ sku: 'POT', name: 'Default', price: '19.00', stock: 3 }] },
    ],
    bundles: [{ id: 'pair', name: 'Pair', items: [{ product: 'mug', sku: 'MUG', quantity: 2 }] }],
  };

  test('re-importing replaces a collection’s members and order, matched by handle', async () => {
    await importCatalog(
      api.db,
      parseCatalog({
        ...base,
        collections: [{ handle: 'kitchen', title: 'Kitchen', items: [{ product: 'mug' }, { bundle: 'pair' }] }],
      }),
    );
    await importCatalog(
      api.db,
      parseCatalog({
        ...base,
        collections: [{ handle: 'kitchen', title: 'Kitchen things', items: [{ bundle: 'pair' }, { product: 'pot' }] }],
      }),
    );
    const one = await api.call('GET', '/store_front/collected/collections/kitchen');
    expect(one.body.data.attributes).toEqual({ handle: 'kitchen', title: 'Kitchen things', description: null });
    const { data } = await listings('/store_front/collected/collections/kitchen/listings');
    expect(data.map((e) => e.attributes.name)).toEqual(['Pair', 'Pot']);
  });

  test('bad collections are refused with the field named, before anything is written', async () => {
    const attempt = (collections: unknown) => () =>
      parseCatalog({ ...base, store: { slug: 'never', title: 'Never' }, collections });
    expect(attempt([{ handle: 'a', title: 'A', items: [{ product: 'cup' }] }])).toThrow(
      /collections\.0\.items\.0\.product: no product cup in this catalog/,
    );
    expect(attempt([{ handle: 'a', title: 'A', items: [{ bundle: 'mug' }] }])).toThrow(/no bundle mug/);
    expect(
      attempt([
        { handle: 'a', title: 'A' },
        { handle: 'a', title: 'Again' },
      ]),
    ).toThrow(/collections\.1\.handle: is used by another collection/);
    expect(attempt([{ handle: 'a', title: 'A', items: [{ product: 'mug' }, { product: 'mug' }] }])).toThrow(
      /collections\.0\.items\.1\.product: is in the collection already/,
    );
    expect(attempt([{ handle: 'Not A Handle', title: 'A' }])).toThrow(/collections\.0\.handle/);
    expect(attempt([{ handle: 'a', title: ' ' }])).toThrow(/collections\.0\.title/);
    expect(attempt([{ handle: 'a', title: 'A', items: [{ product: 'mug', bundle: 'pair' }] }])).toThrow(
      /collections\.0\.items\.0/,
    );
    expect(
      await api.db.selectFrom('stores').select('id').where('slug', '=', 'never').executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe("a product's collections", () => {
  test("are listed in the store's order; none for a product in none; 404 for another store's product", async () => {
    const id = async (slug: string, name: string) => {
      const res = await api.call('GET', `/store_front/${slug}/products?per_page=100&q=${encodeURIComponent(name)}`);
      return res.body.data[0].id as string;
    };
    const beanie = await api.call(
      'GET',
      `/store_front/acme/products/${await id('acme', 'Merino Wool Beanie')}/collections`,
    );
    expect(beanie.status).toBe(200);
    expect(beanie.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    expect(beanie.body.data.map((c: { attributes: { handle: string } }) => c.attributes.handle)).toEqual([
      'apparel',
      'accessories',
    ]);
    const stickers = await api.call(
      'GET',
      `/store_front/acme/products/${await id('acme', 'Sticker Pack')}/collections`,
    );
    expect(stickers.body.data).toEqual([]);
    const vipWatch = await api.call('GET', '/store_front/vip/products?q=Chronograph', vip);
    const watchId = vipWatch.body.data[0].id as string;
    expect((await api.call('GET', `/store_front/acme/products/${watchId}/collections`)).status).toBe(404);
    expect((await api.call('GET', `/store_front/vip/products/${watchId}/collections`)).status).toBe(422);
    const allowed = await api.call('GET', `/store_front/vip/products/${watchId}/collections`, vip);
    expect(allowed.body.data.map((c: { attributes: { title: string } }) => c.attributes.title)).toEqual(['Timepieces']);
  });
});
