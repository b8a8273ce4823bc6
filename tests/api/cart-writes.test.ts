import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import * as initial from '../../src/server/db/migrations/0001_initial.ts';
import * as paymentReleases from '../../src/server/db/migrations/0002_payment_releases.ts';
import { insertEarlyStore, withDatabaseUpTo } from './support/early-schema.ts';
import { newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

/**
 * Cart writes take one statement where they took several (docs/decisions/070-short-lived-caches-and-prepared-statements.md): the rules they kept by locking and
 * looking up first must still hold under concurrency and on refusal.
 */

let api: TestApp;
let tee: string; // TEE-M-RED, stock 50
let sunglasses: string; // stock 3
beforeAll(async () => {
  api = await startTestApp();
  tee = await variantId(api.db, 'TEE-M-RED');
  sunglasses = await variantId(api.db, 'SUNGLASSES');
});
afterAll(async () => api?.close());

const S = '/store_front/acme/cart';
const add = (token: string, variant: string, quantity: number) =>
  api.call('POST', `${S}/cart_line_items`, {
    token,
    body: { cart_line_item: { product_variant_id: variant, quantity } },
  });
const cartsOf = (token: string) => api.db.selectFrom('carts').select('id').where('token', '=', token).execute();

describe('adding a variant', () => {
  test('ten adds of one variant at once make one line holding all ten', async () => {
    const token = newToken();
    const answers = await Promise.all(Array.from({ length: 10 }, () => add(token, tee, 1)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const cart = await api.call('GET', S, { token });
    expect(cart.body.cartItems).toHaveLength(1);
    expect(cart.body.cartItems[0].quantity).toBe(10);
    expect(await cartsOf(token)).toHaveLength(1);
  });

  test('concurrent adds past the stock keep the line within it and refuse the rest', async () => {
    const token = newToken();
    const answers = await Promise.all(Array.from({ length: 5 }, () => add(token, sunglasses, 1)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(422);
      expect(refused.body.errors.quantity[0]).toMatch(/^Only 3 of .+ left in stock\.$/);
    }
    const cart = await api.call('GET', S, { token });
    expect(cart.body.cartItems.map((i: { quantity: number }) => i.quantity)).toEqual([3]);
  });

  test('a refused first add leaves no cart behind', async () => {
    const token = newToken();
    expect((await add(token, sunglasses, 4)).status).toBe(422);
    expect((await add(token, '999999', 1)).status).toBe(404);
    expect(await cartsOf(token)).toEqual([]);
  });

  test('a refused add leaves the existing line as it was', async () => {
    const token = newToken();
    expect((await add(token, tee, 2)).status).toBe(201);
    const before = await api.db
      .selectFrom('carts')
      .select('updated_at')
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    api.clock.offsetMs += 60_000;
    expect((await add(token, tee, 98)).status).toBe(422);
    const cart = await api.call('GET', S, { token });
    expect(cart.body.cartItems[0].quantity).toBe(2);
    const after = await api.db
      .selectFrom('carts')
      .select('updated_at')
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    expect(after.updated_at).toEqual(before.updated_at);
  });
});

describe('changing and removing lines', () => {
  test('without a cart they answer 404 and create none', async () => {
    const token = newToken();
    const line = '00000000-0000-4000-8000-000000000000';
    expect(
      (await api.call('PATCH', `${S}/cart_line_items/${line}`, { token, body: { cart_line_item: { quantity: 2 } } }))
        .status,
    ).toBe(404);
    expect((await api.call('DELETE', `${S}/cart_line_items/${line}`, { token })).status).toBe(404);
    expect(await cartsOf(token)).toEqual([]);
  });

  test('a refused change keeps the quantity and the cart untouched', async () => {
    const token = newToken();
    const added = await add(token, sunglasses, 1);
    const before = await api.db
      .selectFrom('carts')
      .select('updated_at')
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    api.clock.offsetMs += 60_000;
    const refused = await api.call('PATCH', `${S}/cart_line_items/${added.body.cartItems[0].id}`, {
      token,
      body: { cart_line_item: { quantity: 4 } },
    });
    expect(refused.status).toBe(422);
    const after = await api.db
      .selectFrom('carts')
      .select('updated_at')
      .where('token', '=', token)
      .executeTakeFirstOrThrow();
    expect(after.updated_at).toEqual(before.updated_at);
    expect((await api.call('GET', S, { token })).body.cartItems[0].quantity).toBe(1);
  });
});

/** A store with two variants and a bundle, in a database migrated only part of the way. */
async function earlyCatalog(db: Kysely<Database>) {
  const store = await insertEarlyStore(db);
  const product = await db
    .insertInto('products')
    .values({
      store_id: store.id,
      external_id: 'p',
      name: 'P',
      description_html: '',
      featured: false,
      option_names: '[]',
      position: 0,
      default_image_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const variant = (sku: string) => ({
    product_id: product.id,
    store_id: store.id,
    sku,
    name: sku,
    options: '{}',
    price_cents: 100,
    stock: 10,
    position: 0,
  });
  const [v1, v2] = await db
    .insertInto('product_variants')
    .values([variant('A'), variant('B')])
    .returning('id')
    .execute();
  const bundle = await db
    .insertInto('bundles')
    .values({ store_id: store.id, external_id: 'b', name: 'B', description_html: '', featured: false, position: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { store, v1, v2, bundle };
}

describe('migration 0003 (one line per variant and cart)', () => {
  test('merges duplicate variant lines written before it, oldest kept, bundle lines untouched', async () => {
    const upTo0002 = { '0001_initial': initial, '0002_payment_releases': paymentReleases };
    await withDatabaseUpTo(upTo0002, async (db) => {
      const { store, v1, v2, bundle } = await earlyCatalog(db);
      const cart = crypto.randomUUID();
      await db
        .insertInto('carts')
        .values({
          id: cart,
          store_id: store.id,
          token: newToken(),
          address: null,
          payment_intent_id: null,
          last_order_id: null,
        })
        .execute();
      const line = (id: string, variant: number, quantity: number, minute: number, bundleId: number | null = null) => ({
        id,
        cart_id: cart,
        product_variant_id: variant,
        bundle_id: bundleId,
        bundle_quantity: bundleId === null ? null : 1,
        quantity,
        created_at: new Date(Date.UTC(2026, 0, 1, 0, minute)),
      });
      await db
        .insertInto('cart_lines')
        .values([
          line('00000000-0000-4000-8000-000000000003', v1!.id, 2, 3),
          line('00000000-0000-4000-8000-000000000001', v1!.id, 1, 1),
          line('00000000-0000-4000-8000-000000000002', v1!.id, 4, 2),
          line('00000000-0000-4000-8000-000000000004', v2!.id, 5, 1),
          line('00000000-0000-4000-8000-000000000005', v1!.id, 1, 4, bundle.id),
        ])
        .execute();

      expect(await migrateToLatest(db)).toContain('0003_single_variant_lines');

      const lines = await db
        .selectFrom('cart_lines')
        .select(['id', 'product_variant_id', 'quantity', 'bundle_id'])
        .where('cart_id', '=', cart)
        .orderBy('id')
        .execute();
      expect(lines).toEqual([
        { id: '00000000-0000-4000-8000-000000000001', product_variant_id: v1!.id, quantity: 7, bundle_id: null },
        { id: '00000000-0000-4000-8000-000000000004', product_variant_id: v2!.id, quantity: 5, bundle_id: null },
        { id: '00000000-0000-4000-8000-000000000005', product_variant_id: v1!.id, quantity: 1, bundle_id: bundle.id },
      ]);
      const duplicate = sql`insert into cart_lines (id, cart_id, product_variant_id, quantity) values (${crypto.randomUUID()}, ${cart}, ${v2!.id}, 1)`;
      await expect(duplicate.execute(db)).rejects.toThrow(/cart_lines_single_variant/);
    });
  });
});
