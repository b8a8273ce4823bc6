import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADDRESS, CARDS, newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
let tee: string;
let headphones: string;
beforeAll(async () => {
  api = await startTestApp({ RATE_LIMIT_GIFT_CARD_PER_CLIENT: '100000' });
  tee = await variantId(api.db, 'TEE-M-RED');
  headphones = await variantId(api.db, 'HEADPHONES');
});
afterAll(async () => api?.close());

const S = '/store_front/acme';

/** A cart with one line and an address, ready for checkout. */
async function readyCart(variant = tee, quantity = 1) {
  const token = newToken();
  await api.call('POST', `${S}/cart/cart_line_items`, {
    token,
    body: { cart_line_item: { product_variant_id: variant, quantity } },
  });
  await api.call('PUT', `${S}/cart`, { token, body: { cart: ADDRESS } });
  return token;
}

async function paidCart() {
  const token = await readyCart();
  const checkout = await api.call('POST', `${S}/cart/checkout`, { token });
  const intent = checkout.body.paymentIntent;
  const confirmed = await api.call('POST', `/test_processor/payment_intents/${intent.id}/confirm`, {
    body: { card: CARDS.success },
  });
  expect(confirmed.body.status).toBe('succeeded');
  return { token, intentId: intent.id as string };
}

async function orderCount() {
  const row = await api.db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

describe('checkout', () => {
  test('checkout creates a payment intent for the server-computed total', async () => {
    const token = await readyCart();
    const res = await api.call('POST', `${S}/cart/checkout`, { token, body: { amount: 1, total: '0.01' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      requiresPayment: true,
      paymentIntent: {
        id: expect.stringMatching(/^pi_test_/),
        clientSecret: expect.any(String),
        amount: '27.64',
        currency: 'usd',
        status: 'requires_payment_method',
        provider: 'test',
      },
    });
  });

  test('checking out twice reuses the intent; a changed cart updates its amount', async () => {
    const token = await readyCart();
    const first = await api.call('POST', `${S}/cart/checkout`, { token });
    const second = await api.call('POST', `${S}/cart/checkout`, { token });
    expect(second.body.paymentIntent.id).toBe(first.body.paymentIntent.id);
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
    const third = await api.call('POST', `${S}/cart/checkout`, { token });
    expect(third.body.paymentIntent.id).toBe(first.body.paymentIntent.id);
    expect(third.body.paymentIntent.amount).toBe('49.29');
  });

  test('concurrent checkouts of one cart open one intent', async () => {
    const token = await readyCart();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.call('POST', `${S}/cart/checkout`, { token })),
    );
    expect(new Set(answers.map((a) => a.body.paymentIntent.id)).size).toBe(1);
  });

  test('an empty cart or a cart without address cannot check out', async () => {
    const empty = await api.call('POST', `${S}/cart/checkout`, { token: newToken() });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe('Your cart is empty.');
    const token = newToken();
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
    const noAddress = await api.call('POST', `${S}/cart/checkout`, { token });
    expect(noAddress.status).toBe(422);
    expect(noAddress.body.errors.address).toEqual(['Please enter your shipping address.']);
    expect((await api.call('POST', `${S}/cart/checkout`, { token, rawBody: '{oops' })).status).toBe(400);
  });
});

describe('test processor', () => {
  test('declined and insufficient-funds cards answer 402 with Stripe’s messages and leave the intent unpaid', async () => {
    const token = await readyCart();
    const intent = (await api.call('POST', `${S}/cart/checkout`, { token })).body.paymentIntent;
    const declined = await api.call('POST', `/test_processor/payment_intents/${intent.id}/confirm`, {
      body: { card: CARDS.declined },
    });
    expect(declined.status).toBe(402);
    expect(declined.body).toEqual({ message: 'Your card was declined.' });
    const poor = await api.call('POST', `/test_processor/payment_intents/${intent.id}/confirm`, {
      body: { card: CARDS.insufficient },
    });
    expect(poor.body).toEqual({ message: 'Your card has insufficient funds.' });
    const finalize = await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intent.id } });
    expect(finalize.status).toBe(402);
    expect(await api.call('GET', `${S}/cart`, { token }).then((r) => r.body.cartItems.length)).toBe(1);
  });

  test('card fields are validated and unknown intents are 404', async () => {
    const token = await readyCart();
    const intent = (await api.call('POST', `${S}/cart/checkout`, { token })).body.paymentIntent;
    const bad = await api.call('POST', `/test_processor/payment_intents/${intent.id}/confirm`, {
      body: { card: { ...CARDS.success, exp_month: 13, cvc: 'abc' } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['cvc', 'exp_month']);
    const expired = await api.call('POST', `/test_processor/payment_intents/${intent.id}/confirm`, {
      body: { card: { ...CARDS.success, exp_year: 2020 } },
    });
    expect(expired.body).toEqual({ message: 'Your card has expired.' });
    expect(
      (
        await api.call('POST', '/test_processor/payment_intents/pi_test_00000000000000000000000000000000/confirm', {
          body: { card: CARDS.success },
        })
      ).status,
    ).toBe(404);
  });
});

describe('finalize', () => {
  test('a paid cart becomes one order; the cart is emptied and the order is readable by its uuid', async () => {
    const { token, intentId } = await paidCart();
    const res = await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intentId } });
    expect(res.status).toBe(200);
    const order = res.body;
    expect(order.orderDetails).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      number: expect.stringMatching(/^A-\d+$/),
      status: 'paid',
      storeSlug: 'acme',
      subTotal: '20.00',
      tax: '1.65',
      shippingFee: '5.99',
      total: '27.64',
      cartLineItemsSize: 1,
      address: ADDRESS,
    });
    expect(order.paymentIntent).toMatchObject({ id: intentId, amount: '27.64', status: 'succeeded', clientSecret: '' });
    expect((await api.call('GET', `${S}/cart`, { token })).body.cartItems).toEqual([]);
    const read = await api.call('GET', `/cart/${order.orderDetails.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(order);
  });

  test('unknown and malformed order ids are 404', async () => {
    for (let i = 0; i < 20; i++) expect((await api.call('GET', `/cart/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await api.call('GET', '/cart/12345')).body).toEqual({ message: 'Record not found' });
  });

  test('finalizing again, sequentially, answers the same order', async () => {
    const { token, intentId } = await paidCart();
    const first = await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intentId } });
    const again = await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intentId } });
    const noId = await api.call('POST', `${S}/cart/finalize`, { token });
    expect(again.body.orderDetails.id).toBe(first.body.orderDetails.id);
    expect(noId.body.orderDetails.id).toBe(first.body.orderDetails.id);
  });

  test('20 concurrent finalize calls on one paid cart make exactly one order and never a 500', async () => {
    const { token, intentId } = await paidCart();
    const before = await orderCount();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intentId } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s !== 200 && s !== 409),
      JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)),
    ).toEqual([]);
    const ids = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.orderDetails.id));
    expect(ids.size).toBe(1);
    expect(await orderCount()).toBe(before + 1);
  });

  test('finalize refuses an unpaid intent, an intent of another cart, and a cart changed after payment', async () => {
    const token = await readyCart();
    const intent = (await api.call('POST', `${S}/cart/checkout`, { token })).body.paymentIntent;
    expect(
      (await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intent.id } })).status,
    ).toBe(402);
    expect((await api.call('POST', `${S}/cart/finalize`, { token })).body.errors.payment_intent_id).toBeDefined();

    const other = await paidCart();
    const stolen = await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: other.intentId } });
    expect(stolen.status).toBe(422);

    await api.call('POST', `${S}/cart/cart_line_items`, {
      token: other.token,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
    const changed = await api.call('POST', `${S}/cart/finalize`, {
      token: other.token,
      body: { payment_intent_id: other.intentId },
    });
    expect(changed.status).toBe(409);
    expect(changed.body.message).toContain('Your cart changed');
    expect((await api.call('POST', `${S}/cart/finalize`, { token: newToken() })).status).toBe(422);
    expect(
      (await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: "'; drop table orders; --" } }))
        .status,
    ).toBe(422);
  });

  test('gift cards that cover the total place the order without a card and are debited once', async () => {
    const token = await readyCart();
    await api.call('POST', `${S}/gift_cards/apply`, { token, body: { gift_card: { code: 'ACME-500' } } });
    const checkout = await api.call('POST', `${S}/cart/checkout`, { token });
    expect(checkout.body).toEqual({ paymentIntent: null, requiresPayment: false });
    const before = await api.db
      .selectFrom('gift_cards')
      .select('balance_cents')
      .where('code', '=', 'ACME-500')
      .executeTakeFirstOrThrow();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => api.call('POST', `${S}/cart/finalize`, { token })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.orderDetails.id)).size).toBe(1);
    const order = answers[0]!.body;
    expect(order.paymentIntent).toBeNull();
    expect(order.orderDetails.total).toBe('0.00');
    expect(order.orderDetails.giftCards).toEqual([{ id: expect.any(String), code: 'ACME-500', amount: '27.64' }]);
    const after = await api.db
      .selectFrom('gift_cards')
      .select('balance_cents')
      .where('code', '=', 'ACME-500')
      .executeTakeFirstOrThrow();
    expect(before.balance_cents - after.balance_cents).toBe(2764);
  });

  test('one gift card redeemed by many carts at once never goes below zero; the ledger matches', async () => {
    const store = await api.db.selectFrom('stores').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow();
    const cardId = crypto.randomUUID();
    await api.db
      .insertInto('gift_cards')
      .values({
        id: cardId,
        store_id: store.id,
        code: 'RACE-100',
        balance_cents: 10_000,
        initial_cents: 10_000,
        expires_at: null,
      })
      .execute();
    // Each cart owes 129.00 + tax + shipping > 100.00: the card alone never covers one, so pay the rest by card.
    const carts = await Promise.all(Array.from({ length: 12 }, () => readyCart(headphones)));
    const paid: { token: string; intentId: string }[] = [];
    for (const token of carts) {
      await api.call('POST', `${S}/gift_cards/apply`, { token, body: { gift_card: { code: 'RACE-100' } } });
      const intent = (await api.call('POST', `${S}/cart/checkout`, { token })).body.paymentIntent;
      await api.call('POST', `/test_processor/payment_intents/${intent.id}/confirm`, { body: { card: CARDS.success } });
      paid.push({ token, intentId: intent.id });
    }
    const answers = await Promise.all(
      paid.map(({ token, intentId }) =>
        api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intentId } }),
      ),
    );
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const card = await api.db
      .selectFrom('gift_cards')
      .select('balance_cents')
      .where('id', '=', cardId)
      .executeTakeFirstOrThrow();
    const debits = await api.db
      .selectFrom('gift_card_debits')
      .select('amount_cents')
      .where('gift_card_id', '=', cardId)
      .execute();
    expect(card.balance_cents).toBe(0);
    expect(debits.reduce((sum, d) => sum + d.amount_cents, 0)).toBe(10_000 - card.balance_cents);
  });
  test('two carts sharing two gift cards in opposite orders finalize without deadlock: one order per pair', async () => {
    const store = await api.db.selectFrom('stores').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow();
    const pairs = await Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        const [x, y] = [`PAIR-${i}-X`, `PAIR-${i}-Y`];
        for (const code of [x, y]) {
          await api.db
            .insertInto('gift_cards')
            .values({
              id: crypto.randomUUID(),
              store_id: store.id,
              code,
              balance_cents: 10_000,
              initial_cents: 10_000,
              expires_at: null,
            })
            .execute();
        }
        // Each cart owes 139.64: its first card gives 100.00, its second 39.64.
        const first = await readyCart(headphones);
        const second = await readyCart(headphones);
        for (const [token, codes] of [
          [first, [x, y]],
          [second, [y, x]],
        ] as const) {
          for (const code of codes)
            await api.call('POST', `${S}/gift_cards/apply`, { token, body: { gift_card: { code } } });
        }
        return [first, second];
      }),
    );
    const answers = await Promise.all(pairs.flat().map((token) => api.call('POST', `${S}/cart/finalize`, { token })));
    // The loser sees its card spent: 409 when it raced inside the transaction, 422 (payment now
    // required) when it started after the winner committed, as on single-connection PGlite.
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 409 && s !== 422)).toEqual([]);
    for (let i = 0; i < pairs.length; i++) {
      expect([answers[2 * i]!.status, answers[2 * i + 1]!.status].filter((s) => s === 200)).toHaveLength(1);
    }
  });
});
