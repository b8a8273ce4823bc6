import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADDRESS, CARDS, newToken, startTestApp, variantId, WEBHOOK_SECRET, type TestApp } from './support/test-app.ts';

let api: TestApp;
let tee: string;
beforeAll(async () => {
  api = await startTestApp();
  tee = await variantId(api.db, 'TEE-M-RED');
});
afterAll(async () => api?.close());

const S = '/store_front/acme';

async function paidCart() {
  const token = newToken();
  await api.call('POST', `${S}/cart/cart_line_items`, {
    token,
    body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
  });
  await api.call('PUT', `${S}/cart`, { token, body: { cart: ADDRESS } });
  const intent = (await api.call('POST', `${S}/cart/checkout`, { token })).body.paymentIntent;
  await api.call('POST', `/test_processor/payment_intents/${intent.id}/confirm`, { body: { card: CARDS.success } });
  const cart = await api.db.selectFrom('carts').select('id').where('token', '=', token).executeTakeFirstOrThrow();
  return { token, intentId: intent.id as string, cartId: cart.id };
}

function succeededEvent(intentId: string, cartId: string, eventId = `evt_${crypto.randomUUID().replaceAll('-', '')}`) {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: intentId,
        object: 'payment_intent',
        amount: 2764,
        status: 'succeeded',
        metadata: { cart_id: cartId },
      },
    },
  });
}

function deliver(payload: string, options: { secret?: string; timestamp?: number; signature?: string } = {}) {
  const signature =
    options.signature ??
    Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
    });
  return api.call('POST', '/webhooks/stripe', {
    rawBody: payload,
    headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
  });
}

const ordersFor = (intentId: string) =>
  api.db.selectFrom('orders').select('id').where('payment_intent_id', '=', intentId).execute();

describe('Stripe webhook', () => {
  test('a signed payment_intent.succeeded finalizes the order of a shopper who went away', async () => {
    const { token, intentId, cartId } = await paidCart();
    const res = await deliver(succeededEvent(intentId, cartId));
    expect(res.status).toBe(200);
    expect(await ordersFor(intentId)).toHaveLength(1);
    expect((await api.call('GET', `${S}/cart`, { token })).body.cartItems).toEqual([]);
    // The shopper's browser comes back and finalizes: same order.
    const late = await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intentId } });
    expect(late.body.orderDetails.id).toBe((await ordersFor(intentId))[0]!.id);
  });

  test('finalize first, then the webhook: still one order', async () => {
    const { token, intentId, cartId } = await paidCart();
    const order = await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intentId } });
    expect((await deliver(succeededEvent(intentId, cartId))).status).toBe(200);
    expect((await ordersFor(intentId)).map((o) => o.id)).toEqual([order.body.orderDetails.id]);
  });

  test('one event delivered 10 times concurrently changes state once', async () => {
    const { intentId, cartId } = await paidCart();
    const payload = succeededEvent(intentId, cartId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(payload)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await ordersFor(intentId)).toHaveLength(1);
  });

  test('a tampered body, a wrong secret, an old timestamp and a missing header are refused', async () => {
    const { intentId, cartId } = await paidCart();
    const payload = succeededEvent(intentId, cartId);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const tampered = await deliver(payload.replace('2764', '1'), { signature });
    expect(tampered.status).toBe(400);
    expect(tampered.body).toEqual({ message: 'Invalid webhook signature.' });
    expect((await deliver(payload, { secret: 'whsec_wrong' })).status).toBe(400);
    expect((await deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 })).status).toBe(400);
    expect((await api.call('POST', '/webhooks/stripe', { rawBody: payload })).status).toBe(400);
    expect(await ordersFor(intentId)).toHaveLength(0);
  });

  test('a signed event carrying a NUL is refused with 400, never a 500', async () => {
    const answer = await deliver(
      JSON.stringify({ id: 'evt_nul\u0000', object: 'event', type: 'charge.refunded', data: { object: {} } }),
    );
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body).toEqual({ message: 'The request contains a NUL character, which is not allowed.' });
  });

  test('an event for an unpaid intent or an unknown cart creates nothing', async () => {
    const token = newToken();
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
    await api.call('PUT', `${S}/cart`, { token, body: { cart: ADDRESS } });
    const intent = (await api.call('POST', `${S}/cart/checkout`, { token })).body.paymentIntent;
    const cart = await api.db.selectFrom('carts').select('id').where('token', '=', token).executeTakeFirstOrThrow();
    // The event claims success, but the provider says otherwise: no order.
    expect((await deliver(succeededEvent(intent.id, cart.id))).status).toBe(200);
    expect(await ordersFor(intent.id)).toHaveLength(0);
    expect((await deliver(succeededEvent(intent.id, crypto.randomUUID()))).status).toBe(200);
    expect(
      (
        await deliver(
          JSON.stringify({ id: 'evt_other', object: 'event', type: 'charge.refunded', data: { object: {} } }),
        )
      ).status,
    ).toBe(200);
  });
});
