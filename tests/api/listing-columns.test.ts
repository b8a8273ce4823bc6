/**
 * The listing columns of products and bundles (price, stock counters, option values) that migration
 * 0015's triggers keep (docs/decisions/192-listing-facets.md): after every kind of write — stock taken,
 * a price or an option changed, a variant or a bundle item added or removed, two orders at once — they
 * equal what the variants and bundle items say, and the shop's filters answer from them.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

/** Products and bundles whose columns disagree with their variants and items, recomputed here. */
async function stale(): Promise<unknown[]> {
  const { rows } = await sql`
    select 'product' as kind, p.id from products p
    where p.listed_price_cents <> coalesce((select min(v.price_cents) from product_variants v where v.product_id = p.id), 0)
      or (p.stocked_variants > 0) <> exists (select 1 from product_variants v where v.product_id = p.id and v.stock > 0)
      or p.stocked_variants <> (select count(*) from product_variants v where v.product_id = p.id and v.stock > 0)
      or array(select x from unnest(p.option_values) x order by 1) <> array(
        select distinct kv.key || chr(31) || kv.value from product_variants v, jsonb_each_text(v.options) kv
        where v.product_id = p.id order by 1)
    union all
    select 'bundle', b.id from bundles b
    where b.listed_price_cents <> coalesce((select sum(v.price_cents * bi.quantity) from bundle_items bi
        join product_variants v on v.id = bi.product_variant_id where bi.bundle_id = b.id), 0)
      or b.item_count <> (select count(*) from bundle_items bi where bi.bundle_id = b.id)
      or b.short_items <> (select count(*) from bundle_items bi join product_variants v on v.id = bi.product_variant_id
        where bi.bundle_id = b.id and v.stock < bi.quantity)
      or array(select x from unnest(b.option_values) x order by 1) <> array(
        select distinct kv.key || chr(31) || kv.value from bundle_items bi
        join product_variants v on v.id = bi.product_variant_id, jsonb_each_text(v.options) kv
        where bi.bundle_id = b.id order by 1)`.execute(api.db);
  return rows;
}

/** A bundle of the demo store, its items' variants and the product of its first item. */
async function aBundle() {
  const item = await api.db
    .selectFrom('bundle_items as bi')
    .innerJoin('product_variants as v', 'v.id', 'bi.product_variant_id')
    .innerJoin('bundles as b', 'b.id', 'bi.bundle_id')
    .innerJoin('stores as s', 's.id', 'b.store_id')
    .where('s.slug', '=', 'acme')
    .select(['bi.bundle_id', 'bi.product_variant_id', 'bi.quantity', 'v.product_id', 'v.stock'])
    .orderBy('bi.id')
    .executeTakeFirstOrThrow();
  return item;
}

const inStockKeys = async () => {
  const res = await api.call('GET', '/store_front/acme/listings?per_page=500&in_stock=true');
  expect(res.status).toBe(200);
  return new Set((res.body.data as { type: string; id: string }[]).map((e) => `${e.type}:${e.id}`));
};

describe('listing columns kept by triggers', () => {
  test('the demo catalog’s columns are right after the seed import', async () => {
    expect(await stale()).toEqual([]);
    const counted = await api.db.selectFrom('products').select('id').where('stocked_variants', '>', 0).execute();
    expect(counted.length).toBeGreaterThan(0);
  });

  test('stock taken to zero takes a product and the bundles holding it out of “in stock”, and back', async () => {
    const item = await aBundle();
    const before = await inStockKeys();
    expect(before.has(`product:${item.product_id}`)).toBe(true);
    expect(before.has(`bundle:${item.bundle_id}`)).toBe(true);
    const stocks = await api.db
      .selectFrom('product_variants')
      .select(['id', 'stock'])
      .where('product_id', '=', item.product_id)
      .execute();
    // One variant at a time, as orders take it.
    for (const v of stocks)
      await api.db.updateTable('product_variants').set({ stock: 0 }).where('id', '=', v.id).execute();
    expect(await stale()).toEqual([]);
    const after = await inStockKeys();
    expect(after.has(`product:${item.product_id}`)).toBe(false);
    expect(after.has(`bundle:${item.bundle_id}`)).toBe(false);
    for (const v of stocks)
      await api.db.updateTable('product_variants').set({ stock: v.stock }).where('id', '=', v.id).execute();
    expect(await stale()).toEqual([]);
    expect(await inStockKeys()).toEqual(before);
  });

  test('a bundle short of one item’s quantity is out of stock though the item’s product is in stock', async () => {
    const item = await aBundle();
    await api.db
      .updateTable('product_variants')
      .set({ stock: item.quantity - 1 })
      .where('id', '=', item.product_variant_id)
      .execute();
    expect(await stale()).toEqual([]);
    expect((await inStockKeys()).has(`bundle:${item.bundle_id}`)).toBe(false);
    await api.db
      .updateTable('product_variants')
      .set({ stock: item.stock })
      .where('id', '=', item.product_variant_id)
      .execute();
    expect(await stale()).toEqual([]);
  });

  test('a price or an option changed moves the product’s and its bundles’ price and option values', async () => {
    const item = await aBundle();
    const variant = await api.db
      .selectFrom('product_variants')
      .select(['price_cents', 'options'])
      .where('id', '=', item.product_variant_id)
      .executeTakeFirstOrThrow();
    await api.db
      .updateTable('product_variants')
      .set({ price_cents: 1, options: JSON.stringify({ ...variant.options, Finish: 'Matte' }) })
      .where('id', '=', item.product_variant_id)
      .execute();
    expect(await stale()).toEqual([]);
    const res = await api.call('GET', '/store_front/acme/listings?per_page=500&option=Finish:Matte&price_max=0.01');
    expect(res.status).toBe(200);
    expect((res.body.data as { type: string; id: string }[]).map((e) => `${e.type}:${e.id}`)).toEqual([
      `product:${item.product_id}`,
    ]);
    const finish = (
      res.body.meta.facets.options as { name: string; values: { value: string; count: number }[] }[]
    ).find((o) => o.name === 'Finish');
    // The bundle holds the variant too, but its price is above the range.
    expect(finish?.values).toEqual([{ value: 'Matte', count: 1 }]);
    await api.db
      .updateTable('product_variants')
      .set({ price_cents: variant.price_cents, options: JSON.stringify(variant.options) })
      .where('id', '=', item.product_variant_id)
      .execute();
    expect(await stale()).toEqual([]);
  });

  test('variants and bundle items added and removed are counted', async () => {
    const item = await aBundle();
    const product = await api.db
      .selectFrom('product_variants')
      .select(['store_id'])
      .where('id', '=', item.product_variant_id)
      .executeTakeFirstOrThrow();
    const added = await api.db
      .insertInto('product_variants')
      .values({
        product_id: item.product_id,
        store_id: product.store_id,
        sku: 'LISTING-COLUMNS-TEST',
        name: 'Test',
        options: JSON.stringify({ Size: 'XXXL' }),
        price_cents: 3,
        stock: 5,
        position: 99,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await api.db
      .insertInto('bundle_items')
      .values({ bundle_id: item.bundle_id, product_variant_id: added.id, quantity: 6, position: 99 })
      .execute();
    expect(await stale()).toEqual([]);
    expect((await inStockKeys()).has(`bundle:${item.bundle_id}`)).toBe(false);
    // Deleting the variant cascades to the bundle item.
    await api.db.deleteFrom('product_variants').where('id', '=', added.id).execute();
    expect(await stale()).toEqual([]);
    expect((await inStockKeys()).has(`bundle:${item.bundle_id}`)).toBe(true);
  });

  test('two orders emptying a product’s last two variants at once leave it out of stock', async () => {
    const { product_id } = await api.db
      .selectFrom('product_variants')
      .select('product_id')
      .where('stock', '>', 0)
      .groupBy('product_id')
      .having(sql`count(*)`, '>', 1)
      .orderBy('product_id')
      .executeTakeFirstOrThrow();
    const variants = await api.db
      .selectFrom('product_variants')
      .select(['id', 'stock'])
      .where('product_id', '=', product_id)
      .orderBy('id')
      .execute();
    const [first, ...rest] = variants;
    for (const v of rest.slice(1))
      await api.db.updateTable('product_variants').set({ stock: 0 }).where('id', '=', v.id).execute();
    // The first transaction holds its change uncommitted while the second takes the other variant.
    let second: Promise<unknown> | undefined;
    await api.db.transaction().execute(async (trx) => {
      await trx.updateTable('product_variants').set({ stock: 0 }).where('id', '=', first!.id).execute();
      second = api.db
        .transaction()
        .execute((trx2) =>
          trx2.updateTable('product_variants').set({ stock: 0 }).where('id', '=', rest[0]!.id).execute(),
        );
    });
    await second;
    expect(await stale()).toEqual([]);
    const { stocked_variants } = await api.db
      .selectFrom('products')
      .select('stocked_variants')
      .where('id', '=', product_id)
      .executeTakeFirstOrThrow();
    expect(stocked_variants).toBe(0);
    for (const v of variants)
      await api.db.updateTable('product_variants').set({ stock: v.stock }).where('id', '=', v.id).execute();
    expect(await stale()).toEqual([]);
  });
});
