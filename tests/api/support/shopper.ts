import Stripe from 'stripe';
import { expect } from 'vitest';
import { ADDRESS, CARDS, newToken, WEBHOOK_SECRET, type TestApp } from './test-app.ts';

/** Shopper journeys over HTTP, shared by the reliability tests. */

export const S = '/store_front/acme';

export async function acmeId(api: TestApp): Promise<number> {
  return (await api.db.selectFrom('stores').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow()).id;
}

/** A gift card of its own for one test (codes are unique per test run). */
export async function giftCard(
  api: TestApp,
  balanceCents: number,
  prefix = 'REL',
): Promise<{ id: string; code: string }> {
  const id = crypto.randomUUID();
  const code = `${prefix}-${id.slice(0, 8).toUpperCase()}`;
  await api.db
    .insertInto('gift_cards')
    .values({
      id,
      store_id: await acmeId(api),
      code,
      balance_cents: balanceCents,
      initial_cents: balanceCents,
      expires_at: null,
    })
    .execute();
  return { id, code };
}

/** A cart with one line and an address, ready for checkout. */
export async function readyCart(api: TestApp, variant: string, quantity = 1, giftCode?: string): Promise<string> {
  const token = newToken();
  expect(
    (
      await api.call('POST', `${S}/cart/cart_line_items`, {
        token,
        body: { cart_line_item: { product_variant_id: variant, quantity } },
      })
    ).status,
  ).toBe(201);
  expect((await api.call('PUT', `${S}/cart`, { token, body: { cart: ADDRESS } })).status).toBe(200);
  if (giftCode)
    expect(
      (await api.call('POST', `${S}/gift_cards/apply`, { token, body: { gift_card: { code: giftCode } } })).status,
    ).toBe(200);
  return token;
}

/** Checkout and a successful card confirmation: the provider says succeeded. */
export async function pay(api: TestApp, token: string): Promise<string> {
  const checkout = await api.call('POST', `${S}/cart/checkout`, { token });
  expect(checkout.status, checkout.text).toBe(200);
  const intentId = checkout.body.paymentIntent.id as string;
  const confirmed = await api.call('POST', `/test_processor/payment_intents/${intentId}/confirm`, {
    body: { card: CARDS.success },
  });
  expect(confirmed.body.status).toBe('succeeded');
  return intentId;
}

export async function cartIdOf(api: TestApp, token: string): Promise<string> {
  return (await api.db.selectFrom('carts').select('id').where('token', '=', token).executeTakeFirstOrThrow()).id;
}

export const finalize = (api: TestApp, token: string, intentId?: string) =>
  api.call('POST', `${S}/cart/finalize`, { token, ...(intentId ? { body: { payment_intent_id: intentId } } : {}) });

export function succeededEvent(intentId: string, cartId: string, amount: number) {
  return JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: {
      object: { id: intentId, object: 'payment_intent', amount, status: 'succeeded', metadata: { cart_id: cartId } },
    },
  });
}

export function deliverWebhook(api: TestApp, payload: string, options: { secret?: string; timestamp?: number } = {}) {
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
  });
  return api.call('POST', '/webhooks/stripe', {
    rawBody: payload,
    headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
  });
}

/** Money the provider kept: succeeded intents of these carts, minus what was refunded. */
export async function chargesOf(
  api: TestApp,
  cartIds: readonly string[],
): Promise<{ charges: number; refunds: number; keptCents: number }> {
  if (cartIds.length === 0) return { charges: 0, refunds: 0, keptCents: 0 };
  const rows = await api.db
    .selectFrom('payment_intents')
    .select(['amount_cents', 'refunded_cents'])
    .where('cart_id', 'in', cartIds)
    .where('status', '=', 'succeeded')
    .execute();
  return {
    charges: rows.filter((r) => r.refunded_cents === 0).length,
    refunds: rows.filter((r) => r.refunded_cents > 0).length,
    keptCents: rows.reduce((sum, r) => sum + r.amount_cents - r.refunded_cents, 0),
  };
}

/** A product of its own for one test, with one variant of this stock, in acme; answers the variant id. */
export async function stockedVariant(
  api: TestApp,
  stock: number,
  options: { name?: string; priceCents?: number } = {},
): Promise<string> {
  const key = crypto.randomUUID().slice(0, 8);
  const name = options.name ?? `Stock item ${key}`;
  const store_id = await acmeId(api);
  const product = await api.db
    .insertInto('products')
    .values({
      store_id,
      external_id: `stock-${key}`,
      name,
      description_html: '',
      featured: false,
      option_names: '[]',
      position: 1000,
      default_image_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const variant = await api.db
    .insertInto('product_variants')
    .values({
      product_id: product.id,
      store_id,
      sku: `STOCK-${key}`,
      name: 'Default',
      options: '{}',
      price_cents: options.priceCents ?? 1000,
      stock,
      position: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(variant.id);
}

/** A bundle of its own for one test, of these variants; answers the bundle id. */
export async function bundleOf(api: TestApp, items: readonly { variant: string; quantity: number }[]): Promise<string> {
  const key = crypto.randomUUID().slice(0, 8);
  const bundle = await api.db
    .insertInto('bundles')
    .values({
      store_id: await acmeId(api),
      external_id: `bundle-${key}`,
      name: `Bundle ${key}`,
      description_html: '',
      featured: false,
      position: 1000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await api.db
    .insertInto('bundle_items')
    .values(
      items.map((item, position) => ({
        bundle_id: bundle.id,
        product_variant_id: Number(item.variant),
        quantity: item.quantity,
        position,
      })),
    )
    .execute();
  return String(bundle.id);
}

export async function stockOf(api: TestApp, variant: string): Promise<number> {
  return (
    await api.db
      .selectFrom('product_variants')
      .select('stock')
      .where('id', '=', Number(variant))
      .executeTakeFirstOrThrow()
  ).stock;
}

/** A cart with one bundle and an address, ready for checkout. */
export async function readyBundleCart(api: TestApp, bundle: string, quantity = 1): Promise<string> {
  const token = newToken();
  const added = await api.call('POST', `${S}/cart/cart_line_items`, {
    token,
    body: { cart_line_item: { bundle_id: bundle, quantity } },
  });
  expect(added.status, added.text).toBe(201);
  expect((await api.call('PUT', `${S}/cart`, { token, body: { cart: ADDRESS } })).status).toBe(200);
  return token;
}
