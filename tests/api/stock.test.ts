/**
 * Stock: what a cart may hold, what checkout refuses, what finalize takes. A variant's demand in a
 * cart is its own line plus its share of every bundle line (docs/decisions/090-stock-taken-at-finalize.md).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  bundleOf,
  cartIdOf,
  chargesOf,
  finalize,
  pay,
  readyCart,
  S,
  stockedVariant,
  stockOf,
} from './support/shopper.ts';
import { bundleId, newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
let navyTee: string; // TEE-M-NAVY, stock 40, one in each Weekend Outdoors Pack
let weekendPack: string; // TEE-M-NAVY, HOODIE-M-FOREST (stock 25), STEEL-BOTTLE
beforeAll(async () => {
  api = await startTestApp();
  navyTee = await variantId(api.db, 'TEE-M-NAVY');
  weekendPack = await bundleId(api.db, 'weekend-pack');
});
afterAll(async () => api?.close());

const addVariant = (token: string, variant: string, quantity: number) =>
  api.call('POST', `${S}/cart/cart_line_items`, {
    token,
    body: { cart_line_item: { product_variant_id: variant, quantity } },
  });
const addBundle = (token: string, bundle: string, quantity: number) =>
  api.call('POST', `${S}/cart/cart_line_items`, { token, body: { cart_line_item: { bundle_id: bundle, quantity } } });
const change = (token: string, lineId: string, quantity: number) =>
  api.call('PATCH', `${S}/cart/cart_line_items/${lineId}`, { token, body: { cart_line_item: { quantity } } });
const quantities = async (token: string) =>
  (await api.call('GET', `${S}/cart`, { token })).body.cartItems.map(
    (i: { bundle_id: string | null; quantity: number }) => [i.bundle_id === null ? 'line' : 'bundle', i.quantity],
  );
const lineOf = (
  cart: { cartItems: { id: string; bundle_id: string | null; product_details: { product_variant_id: string } }[] },
  variant: string,
  inBundle: boolean,
) =>
  cart.cartItems.find((i) => i.product_details.product_variant_id === variant && (i.bundle_id !== null) === inBundle)!
    .id;

const ONLY_40_TEES = 'Only 40 of Classic Cotton Tee left in stock.';

describe('a cart holds at most the stock of a variant, across its own line and its bundles', () => {
  test('a bundle is refused when its share and the variant’s own line together pass the stock (40 + 20 of 40)', async () => {
    const token = newToken();
    expect((await addVariant(token, navyTee, 40)).status).toBe(201);
    const refused = await addBundle(token, weekendPack, 20);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: ONLY_40_TEES, errors: { quantity: [ONLY_40_TEES] } });
    expect(await quantities(token)).toEqual([['line', 40]]);
  });

  test('a variant is refused when the cart’s bundles already hold part of its stock', async () => {
    const token = newToken();
    expect((await addBundle(token, weekendPack, 20)).status).toBe(201);
    const refused = await addVariant(token, navyTee, 21);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.quantity).toEqual([ONLY_40_TEES]);
    expect((await addVariant(token, navyTee, 20)).status).toBe(201);
    expect((await addVariant(token, navyTee, 1)).body.errors.quantity).toEqual([ONLY_40_TEES]);
    expect(await quantities(token)).toEqual([
      ['bundle', 20],
      ['bundle', 20],
      ['bundle', 20],
      ['line', 20],
    ]);
  });

  test('changing a product line’s quantity counts the bundles’ share', async () => {
    const token = newToken();
    await addBundle(token, weekendPack, 20);
    const cart = (await addVariant(token, navyTee, 10)).body;
    const line = lineOf(cart, navyTee, false);
    const refused = await change(token, line, 21);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.quantity).toEqual([ONLY_40_TEES]);
    expect((await change(token, line, 20)).status).toBe(200);
  });

  test('changing a bundle’s quantity counts the variant’s own line', async () => {
    const token = newToken();
    await addVariant(token, navyTee, 30);
    const cart = (await addBundle(token, weekendPack, 5)).body;
    const bundleLine = lineOf(cart, navyTee, true);
    const refused = await change(token, bundleLine, 11);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.quantity).toEqual([ONLY_40_TEES]);
    expect(await quantities(token)).toEqual([
      ['line', 30],
      ['bundle', 5],
      ['bundle', 5],
      ['bundle', 5],
    ]);
    expect((await change(token, bundleLine, 10)).status).toBe(200);
  });

  test('two bundles sharing a variant count together, and adding more of a bundle counts its own lines once', async () => {
    const shared = await stockedVariant(api, 5, { name: 'Shared Part' });
    const other = await stockedVariant(api, 100);
    const pairs = await bundleOf(api, [{ variant: shared, quantity: 2 }]);
    const kit = await bundleOf(api, [
      { variant: shared, quantity: 1 },
      { variant: other, quantity: 1 },
    ]);
    const token = newToken();
    expect((await addBundle(token, pairs, 2)).status).toBe(201);
    const refused = await addBundle(token, kit, 2);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.quantity).toEqual(['Only 5 of Shared Part left in stock.']);
    expect((await addBundle(token, kit, 1)).status).toBe(201);
    // 2 × 2 + 1 = 5: one more kit passes, one more pair too.
    expect((await addBundle(token, kit, 1)).body.errors.quantity).toEqual(['Only 5 of Shared Part left in stock.']);
    expect((await addBundle(token, pairs, 1)).body.errors.quantity).toEqual(['Only 5 of Shared Part left in stock.']);
  });

  test('the per-line limit of 99 and the sold-out message are unchanged', async () => {
    const plenty = await stockedVariant(api, 1000);
    const gone = await stockedVariant(api, 0, { name: 'Gone Item' });
    const token = newToken();
    expect((await addVariant(token, plenty, 99)).status).toBe(201);
    expect((await addVariant(token, plenty, 1)).body.errors.quantity).toEqual([
      'You can have at most 99 of an item in your cart.',
    ]);
    expect((await addVariant(token, gone, 1)).body.errors.quantity).toEqual(['Gone Item is out of stock.']);
  });
});

describe('checkout refuses a cart that wants more than the stock has now', () => {
  test('the refusal names the item and no payment is opened', async () => {
    const item = await stockedVariant(api, 3, { name: 'Scarce Lamp' });
    const token = await readyCart(api, item, 3);
    await api.db.updateTable('product_variants').set({ stock: 1 }).where('id', '=', Number(item)).execute();
    const refused = await api.call('POST', `${S}/cart/checkout`, { token });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: 'Only 1 of Scarce Lamp left in stock.',
      errors: { quantity: ['Only 1 of Scarce Lamp left in stock.'] },
    });
    await api.db.updateTable('product_variants').set({ stock: 0 }).where('id', '=', Number(item)).execute();
    expect((await api.call('POST', `${S}/cart/checkout`, { token })).body.message).toBe('Scarce Lamp is out of stock.');
    const intents = await api.db
      .selectFrom('payment_intents')
      .select('id')
      .where('cart_id', '=', await cartIdOf(api, token))
      .execute();
    expect(intents).toEqual([]);
  });

  test('a bundle’s share counts: a product line of 2 and a bundle of 1 need 3', async () => {
    const item = await stockedVariant(api, 3, { name: 'Shared Cup' });
    const kit = await bundleOf(api, [{ variant: item, quantity: 1 }]);
    const token = await readyCart(api, item, 2);
    expect((await addBundle(token, kit, 1)).status).toBe(201);
    await api.db.updateTable('product_variants').set({ stock: 2 }).where('id', '=', Number(item)).execute();
    const refused = await api.call('POST', `${S}/cart/checkout`, { token });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Only 2 of Shared Cup left in stock.');
  });
});

describe('finalize takes the stock', () => {
  test('an order takes its units from stock: its own lines and every component of its bundles', async () => {
    const cup = await stockedVariant(api, 10);
    const saucer = await stockedVariant(api, 10);
    const set = await bundleOf(api, [
      { variant: cup, quantity: 1 },
      { variant: saucer, quantity: 2 },
    ]);
    const token = await readyCart(api, cup, 2);
    expect((await addBundle(token, set, 2)).status).toBe(201);
    const order = await finalize(api, token, await pay(api, token));
    expect(order.status).toBe(200);
    expect([await stockOf(api, cup), await stockOf(api, saucer)]).toEqual([6, 6]);
    // A retry answers the same order and takes nothing more.
    expect((await finalize(api, token)).body.orderDetails.id).toBe(order.body.orderDetails.id);
    expect([await stockOf(api, cup), await stockOf(api, saucer)]).toEqual([6, 6]);
  });

  test('stock sold to another shopper after paying: the payment is refunded, the answer names the item, nothing is ordered', async () => {
    const item = await stockedVariant(api, 2, { name: 'Last Lantern' });
    const late = await readyCart(api, item, 2);
    const lateIntent = await pay(api, late);
    const early = await readyCart(api, item, 1);
    expect((await finalize(api, early, await pay(api, early))).status).toBe(200);

    const refused = await finalize(api, late, lateIntent);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Only 1 of Last Lantern left in stock. Your payment is being refunded; please review your cart and pay again.',
    );
    const lateCart = await cartIdOf(api, late);
    expect(await api.db.selectFrom('orders').select('id').where('cart_id', '=', lateCart).execute()).toEqual([]);
    expect(await chargesOf(api, [lateCart])).toMatchObject({ charges: 0, refunds: 1, keptCents: 0 });
    expect(await stockOf(api, item)).toBe(1);

    // The same intent again is the same refusal; paying again is refused before any charge.
    expect((await finalize(api, late, lateIntent)).status).toBe(409);
    const again = await api.call('POST', `${S}/cart/checkout`, { token: late });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe('Only 1 of Last Lantern left in stock.');
    expect(await chargesOf(api, [lateCart])).toMatchObject({ charges: 0, refunds: 1 });
  });

  test('an order without a card payment (gift cards cover it) that finds the stock gone is refused and takes nothing', async () => {
    const item = await stockedVariant(api, 1, { name: 'Gift Candle', priceCents: 500 });
    const token = await readyCart(api, item, 1);
    const applied = await api.call('POST', `${S}/gift_cards/apply`, {
      token,
      body: { gift_card: { code: 'ACME-500' } },
    });
    expect(applied.body.requiresPayment).toBe(false);
    await api.db.updateTable('product_variants').set({ stock: 0 }).where('id', '=', Number(item)).execute();
    const refused = await finalize(api, token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Gift Candle is out of stock. Please review your cart.');
    const card = await api.db
      .selectFrom('gift_cards')
      .select('balance_cents')
      .where('code', '=', 'ACME-500')
      .executeTakeFirstOrThrow();
    expect(card.balance_cents).toBe(50_000);
    expect(
      await api.db
        .selectFrom('orders')
        .select('id')
        .where('cart_id', '=', await cartIdOf(api, token))
        .execute(),
    ).toEqual([]);
  });
});
