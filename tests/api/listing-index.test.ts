/**
 * The store's listing index is reused for LISTING_INDEX_MS (docs/decisions/200-listing-index.md): what a
 * stock or catalog change looks like to the shop's filters and counts, that the page's own entries are never
 * stale, and which writes move the catalog's version that tells an instance to read the index again.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readListingVersion } from '../../src/server/listings/listing-index.ts';
import { acmeId, finalize, pay, readyCart, stockedVariant } from './support/shopper.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

type Page = { data: { type: string; id: string }[]; meta: { total: number; facets: { in_stock: number } } };

describe('with LISTING_INDEX_MS=5000', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ LISTING_INDEX_MS: '5000' });
  });
  afterAll(async () => api?.close());

  const inStock = async (): Promise<Page> => {
    const res = await api.call('GET', '/store_front/acme/listings?per_page=500&in_stock=true');
    expect(res.status).toBe(200);
    return res.body as Page;
  };

  /** A product of the demo store in stock, and a way to set its variants' stock. */
  async function aProductInStock() {
    const product = await api.db
      .selectFrom('products as p')
      .innerJoin('stores as s', 's.id', 'p.store_id')
      .where('s.slug', '=', 'acme')
      .where('p.stocked_variants', '>', 0)
      .select(['p.id', 'p.name'])
      .orderBy('p.id')
      .executeTakeFirstOrThrow();
    const stocks = await api.db
      .selectFrom('product_variants')
      .select(['id', 'stock'])
      .where('product_id', '=', product.id)
      .execute();
    const soldOut = () =>
      api.db.updateTable('product_variants').set({ stock: 0 }).where('product_id', '=', product.id).execute();
    const restock = async () => {
      for (const { id, stock } of stocks) {
        await api.db.updateTable('product_variants').set({ stock }).where('id', '=', id).execute();
      }
    };
    return { key: `product:${product.id}`, soldOut, restock };
  }

  const keys = (page: Page) => page.data.map((entry) => `${entry.type}:${entry.id}`);

  test('a product sold out leaves the in-stock filter once the index has expired, not before', async () => {
    const product = await aProductInStock();
    const before = await inStock();
    expect(keys(before)).toContain(product.key);
    await product.soldOut();

    api.clock.offsetMs += 1000;
    const early = await inStock();
    expect(early.meta.total).toBe(before.meta.total);
    expect(early.meta.facets.in_stock).toBe(before.meta.facets.in_stock);

    api.clock.offsetMs += 4000;
    const late = await inStock();
    expect(keys(late)).not.toContain(product.key);
    // Bundles holding it are sold out with it.
    expect(late.meta.total).toBeLessThan(before.meta.total);

    await product.restock();
    api.clock.offsetMs += 5000;
    expect((await inStock()).meta.total).toBe(before.meta.total);
  });

  test('past three quarters of its life the index is read again in the background: the next calls see the change', async () => {
    const product = await aProductInStock();
    const before = await inStock();
    await product.soldOut();
    api.clock.offsetMs += 2500;
    expect((await inStock()).meta.total).toBe(before.meta.total);
    api.clock.offsetMs += 1250;
    // This call is answered from the index it found and starts reading a new one.
    expect((await inStock()).meta.total).toBe(before.meta.total);
    await expect.poll(async () => keys(await inStock())).not.toContain(product.key);

    await product.restock();
    api.clock.offsetMs += 5000;
  });

  test('the entries of a page are read now: a price changed within the index’s life shows at once', async () => {
    const listed = await api.call('GET', '/store_front/acme/listings?per_page=1&sort=name');
    const [entry] = listed.body.data as { type: string; id: string; attributes: { price: string } }[];
    expect(entry?.type).toBe('product');
    const variants = await api.db
      .selectFrom('product_variants')
      .select(['id', 'price_cents'])
      .where('product_id', '=', Number(entry!.id))
      .execute();
    await api.db
      .updateTable('product_variants')
      .set({ price_cents: 123_45 })
      .where('product_id', '=', Number(entry!.id))
      .execute();
    const again = await api.call('GET', '/store_front/acme/listings?per_page=1&sort=name');
    expect(again.body.data[0].id).toBe(entry!.id);
    expect(again.body.data[0].attributes.price).toBe('123.45');
    for (const { id, price_cents } of variants) {
      await api.db.updateTable('product_variants').set({ price_cents }).where('id', '=', id).execute();
    }
  });

  test.each(['', 'price', '-price', 'name', 'featured'])(
    'the unfiltered list sorted by "%s", counted once per index, agrees with a filter every entry passes',
    async (sort) => {
      const page = async (query: string) =>
        (await api.call('GET', `/store_front/acme/listings?per_page=5${sort ? `&sort=${sort}` : ''}&${query}`)).body;
      // The first unfiltered call counts the store and keeps the count with the index; the next ones use it.
      await page('page=1');
      for (const n of [1, 2, 3]) expect(await page(`page=${n}`)).toEqual(await page(`page=${n}&price_min=0`));
    },
  );

  test('the unfiltered count and facets are the index’s: a product sold out shows in them once it is read again', async () => {
    const all = async (): Promise<Page> =>
      (await api.call('GET', '/store_front/acme/listings?per_page=500')).body as Page;
    const product = await aProductInStock();
    const before = await all();
    await product.soldOut();
    api.clock.offsetMs += 1000;
    expect((await all()).meta.facets.in_stock).toBe(before.meta.facets.in_stock);
    api.clock.offsetMs += 4000;
    const late = await all();
    expect(late.meta.total).toBe(before.meta.total);
    expect(late.meta.facets.in_stock).toBeLessThan(before.meta.facets.in_stock);
    await product.restock();
    api.clock.offsetMs += 5000;
    expect((await all()).meta.facets.in_stock).toBe(before.meta.facets.in_stock);
  });

  test.each(['', 'price', '-price', 'name', '-name', 'newest', 'featured'])(
    'pages of a filtered list sorted by "%s" are its slices, in order, without gaps or repeats',
    async (sort) => {
      const query = `in_stock=true&price_min=10${sort ? `&sort=${sort}` : ''}`;
      const whole = (await api.call('GET', `/store_front/acme/listings?${query}&per_page=100`)).body as Page;
      expect(whole.meta.total).toBeGreaterThan(10);
      const pages: string[] = [];
      for (let page = 1; pages.length < whole.meta.total; page++) {
        const res = (await api.call('GET', `/store_front/acme/listings?${query}&per_page=4&page=${page}`)).body as Page;
        expect(res.data.length).toBeGreaterThan(0);
        pages.push(...keys(res));
      }
      expect(pages).toEqual(keys(whole));
    },
  );
});

describe('the catalog version an index is checked against', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(async () => api?.close());

  const version = () => readListingVersion(api.db);

  /** A paid order of `quantity` units of a variant. */
  async function buy(variant: string, quantity: number): Promise<void> {
    const token = await readyCart(api, variant, quantity);
    const order = await finalize(api, token, await pay(api, token));
    expect(order.status, order.text).toBe(200);
  }

  test('an order leaves it alone unless it sells a product out', async () => {
    const variant = await stockedVariant(api, 3);
    const before = await version();
    await buy(variant, 1);
    expect(await version()).toBe(before);
    await buy(variant, 2);
    expect(await version()).not.toBe(before);
  });

  test('a write to a product, a bundle or a collection’s members moves it; a statement that wrote nothing does not', async () => {
    const store = await acmeId(api);
    const product = await api.db
      .selectFrom('products')
      .select(['id', 'featured'])
      .where('store_id', '=', store)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const writes = [
      () => api.db.updateTable('products').set({ featured: !product.featured }).where('id', '=', product.id).execute(),
      () => api.db.updateTable('products').set({ featured: product.featured }).where('id', '=', product.id).execute(),
      () => api.db.updateTable('bundles').set({ featured: true }).where('store_id', '=', store).execute(),
      async () => {
        const collection = await api.db
          .insertInto('collections')
          .values({
            store_id: store,
            handle: `versioned-${Date.now()}`,
            title: 'Versioned',
            description: null,
            position: 99,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await api.db
          .insertInto('collection_items')
          .values({ collection_id: collection.id, product_id: product.id, bundle_id: null, position: 0 })
          .execute();
      },
    ];
    for (const write of writes) {
      const before = await version();
      await write();
      expect(await version()).not.toBe(before);
    }
    const before = await version();
    await api.db.updateTable('products').set({ featured: true }).where('id', '=', -1).execute();
    await api.db.deleteFrom('collection_items').where('id', '=', -1).execute();
    expect(await version()).toBe(before);
  });
});
