/**
 * What the catalog's writes tell the next publish (migrations 0030 and 0031, docs/decisions/225-publish-from-catalog-changes.md and 226):
 * the products whose answers may have changed, or nothing (null) when the catalog's shape may have moved.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { changesSince, changesStart, pruneChanges } from '../../src/server/publishing/catalog-changes.ts';
import { acmeId } from './support/shopper.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

/** A product of acme with a variant that a bundle holds, and that bundle. */
async function bundledProduct() {
  return api.db
    .selectFrom('products as p')
    .innerJoin('product_variants as v', 'v.product_id', 'p.id')
    .innerJoin('bundle_items as bi', 'bi.product_variant_id', 'v.id')
    .select(['p.id as productId', 'v.id as variantId', 'bi.bundle_id as bundleId', 'p.store_id as storeId'])
    .where('p.store_id', '=', await acmeId(api))
    .orderBy('p.id')
    .executeTakeFirstOrThrow();
}

/** What `changesSince` answers for the writes `write` makes, from a start taken just before them. */
async function after(write: () => Promise<unknown>) {
  const start = await changesStart(api.db);
  await write();
  return changesSince(api.db, start);
}

describe('the writes since a build began', () => {
  test('none: no product changed', async () => {
    expect(await after(async () => undefined)).toEqual({ products: new Set(), bundles: new Set() });
  });

  test("a variant's price: its product, and the bundles holding any of its variants", async () => {
    const { productId, variantId, bundleId } = await bundledProduct();
    const changes = await after(() =>
      api.db
        .updateTable('product_variants')
        .set({ price_cents: sql`price_cents + 1` })
        .where('id', '=', variantId)
        .execute(),
    );
    // The product's listed price and version follow (triggers of migrations 0015 and 0018): still only the product.
    expect(changes).toEqual({ products: new Set([productId]), bundles: new Set([bundleId]) });
  });

  test("a variant's stock taken to 0 and back: its product", async () => {
    const { productId, variantId } = await bundledProduct();
    const changes = await after(async () => {
      await api.db.updateTable('product_variants').set({ stock: 0 }).where('id', '=', variantId).execute();
      await api.db.updateTable('product_variants').set({ stock: 5 }).where('id', '=', variantId).execute();
    });
    expect(changes?.products).toEqual(new Set([productId]));
  });

  test("an order's stock take, through checkout's own statement: its product", async () => {
    const { productId, variantId } = await bundledProduct();
    const changes = await after(() =>
      api.db
        .updateTable('product_variants')
        .set({ stock: sql`stock - 1` })
        .where('id', '=', variantId)
        .where('stock', '>=', 1)
        .execute(),
    );
    expect(changes?.products).toEqual(new Set([productId]));
  });

  test('a product renamed, archived or added, an image, a collection or a bundle changed: the catalog is listed', async () => {
    const { productId, bundleId, storeId } = await bundledProduct();
    const writes: [string, () => Promise<unknown>][] = [
      [
        'rename',
        () =>
          api.db
            .updateTable('products')
            .set({ name: sql`name || ''` })
            .where('id', '=', productId)
            .execute(),
      ],
      [
        'renamed',
        () =>
          api.db
            .updateTable('products')
            .set({ name: sql`name || '!'` })
            .where('id', '=', productId)
            .execute(),
      ],
      [
        'featured',
        () =>
          api.db
            .updateTable('products')
            .set({ featured: sql`not featured` })
            .where('id', '=', productId)
            .execute(),
      ],
      [
        'image alt',
        () => api.db.updateTable('product_images').set({ alt: 'new' }).where('product_id', '=', productId).execute(),
      ],
      [
        'collection',
        () =>
          api.db
            .updateTable('collections')
            .set({ title: sql`title || '!'` })
            .where('store_id', '=', storeId)
            .execute(),
      ],
      [
        'bundle name',
        () =>
          api.db
            .updateTable('bundles')
            .set({ name: sql`name || '!'` })
            .where('id', '=', bundleId)
            .execute(),
      ],
      [
        'bundle item',
        () =>
          api.db
            .updateTable('bundle_items')
            .set({ quantity: sql`quantity + 1` })
            .where('bundle_id', '=', bundleId)
            .execute(),
      ],
      [
        'new product',
        () =>
          api.db
            .insertInto('products')
            .values({
              store_id: storeId,
              external_id: 'catalog-changes-new',
              name: 'New',
              description_html: '',
              featured: false,
              option_names: JSON.stringify([]),
              position: 1000,
            })
            .execute(),
      ],
    ];
    // One after the other: each answer is of its own write alone.
    const answers: Record<string, unknown> = {};
    for (const [name, write] of writes) answers[name] = await after(write);
    // Setting a name to itself writes no change of it.
    expect(answers).toEqual({
      rename: { products: new Set(), bundles: new Set() },
      renamed: null,
      featured: null,
      'image alt': null,
      collection: null,
      'bundle name': null,
      'bundle item': null,
      'new product': null,
    });
  });

  test('one statement writing many rows: each product it changed only in kept columns, unless one changed more', async () => {
    const { productId, storeId } = await bundledProduct();
    const ids = await api.db.selectFrom('products').select('id').where('store_id', '=', storeId).execute();
    expect(ids.length).toBeGreaterThan(2);
    const kept = (more: boolean) =>
      api.db
        .updateTable('products')
        .set({
          version: sql`version + 1`,
          name: more ? sql`case when id = ${productId} then name || '!' else name end` : sql`name`,
        })
        .where('store_id', '=', storeId)
        .execute();
    const bundles = (more: boolean) =>
      api.db
        .updateTable('bundles')
        .set({ version: sql`version + 1`, featured: more ? sql`not featured` : sql`featured` })
        .where('store_id', '=', storeId)
        .execute();
    // A one-row statement first, as a storefront's connection has seen long before a store-wide one.
    await after(() =>
      api.db
        .updateTable('products')
        .set({ version: sql`version + 1` })
        .where('id', '=', productId)
        .execute(),
    );
    expect(await after(() => kept(false))).toEqual({
      products: new Set(ids.map(({ id }) => id)),
      bundles: expect.any(Set),
    });
    expect(await after(() => kept(true))).toBeNull();
    expect(await after(() => bundles(false))).toEqual({ products: new Set(), bundles: new Set() });
    expect(await after(() => bundles(true))).toBeNull();
  });

  test('changes pruned past a start: the catalog is listed from that start, not from a later one', async () => {
    const { variantId } = await bundledProduct();
    const old = await changesStart(api.db);
    await api.db
      .updateTable('product_variants')
      .set({ price_cents: sql`price_cents + 1` })
      .where('id', '=', variantId)
      .execute();
    const later = await changesStart(api.db);
    await pruneChanges(api.db, later);
    expect(await changesSince(api.db, old)).toBeNull();
    expect(await changesSince(api.db, later)).toEqual({ products: new Set(), bundles: new Set() });
  });
});

// Two connections at once: PGlite has one.
describe.runIf(process.env.DATABASE_URL)('a write committed after a build began', () => {
  test('is among the changes since, though its transaction began before the build did', async () => {
    const { productId, variantId } = await bundledProduct();
    let start = '';
    await api
      .instanceDb()
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('product_variants')
          .set({ price_cents: sql`price_cents + 1` })
          .where('id', '=', variantId)
          .execute();
        // The build begins while the write is not committed: none of its reads can see it.
        start = await changesStart(api.db);
      });
    expect((await changesSince(api.db, start))?.products).toEqual(new Set([productId]));
  });
});
