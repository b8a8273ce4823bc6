/**
 * Reliability (docs/reliability.md), money and orders: each invariant holds exactly under concurrency, on PGlite (npm test)
 * and PostgreSQL (CI runs this project again with DATABASE_URL). Every test prints its figure.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pool, report, split, timed } from './support/figures.ts';
import {
  cartIdOf,
  chargesOf,
  deliverWebhook,
  finalize,
  giftCard,
  pay,
  readyCart,
  S,
  succeededEvent,
} from './support/shopper.ts';
import { newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
let tee: string;
let headphones: string;
beforeAll(async () => {
  api = await startTestApp({ RATE_LIMIT_GIFT_CARD_PER_CLIENT: '1000000', RATE_LIMIT_GIFT_CARD_PER_CART: '1000' });
  tee = await variantId(api.db, 'TEE-M-RED');
  headphones = await variantId(api.db, 'HEADPHONES');
});
afterAll(async () => api?.close());

const ordersOfCart = async (cartId: string) =>
  api.db.selectFrom('orders').select(['id', 'payment_intent_id']).where('cart_id', '=', cartId).execute();
const debitsOf = async (cardId: string) =>
  api.db.selectFrom('gift_card_debits').select('amount_cents').where('gift_card_id', '=', cardId).execute();

describe('finalize is exactly-once', () => {
  test('50 concurrent finalize calls on one paid cart give one order, one charge and one gift card debit', async () => {
    const card = await giftCard(api, 1000);
    const token = await readyCart(api, tee, 1, card.code);
    const intentId = await pay(api, token);
    const cartId = await cartIdOf(api, token);

    const answers = await Promise.all(Array.from({ length: 50 }, () => timed(() => finalize(api, token, intentId))));
    const statuses = answers.map((a) => a.value.status);
    const orderIds = new Set(answers.filter((a) => a.value.status === 200).map((a) => a.value.body.orderDetails.id));
    const orders = await ordersOfCart(cartId);
    const { charges } = await chargesOf(api, [cartId]);
    const debits = await debitsOf(card.id);
    const violations =
      statuses.filter((s) => s !== 200 && s !== 409).length +
      (orders.length === 1 ? 0 : 1) +
      (orderIds.size === 1 ? 0 : 1) +
      (charges === 1 ? 0 : 1) +
      (debits.length === 1 ? 0 : 1);
    report(
      'finalize×50',
      { orders: orders.length, charges, debits: debits.length, answers: split(statuses), violations },
      answers.map((a) => a.ms),
    );

    expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(orders).toHaveLength(1);
    expect([...orderIds]).toEqual([orders[0]!.id]);
    expect(charges).toBe(1);
    expect(debits).toEqual([{ amount_cents: 1000 }]);
  });

  test('finalize then the webhook, and the webhook then finalize, give one order', async () => {
    const results: string[] = [];
    for (const order of ['finalize-first', 'webhook-first', 'together'] as const) {
      const token = await readyCart(api, tee);
      const intentId = await pay(api, token);
      const cartId = await cartIdOf(api, token);
      const event = succeededEvent(intentId, cartId, 2764);
      let statuses: number[];
      if (order === 'finalize-first')
        statuses = [(await finalize(api, token, intentId)).status, (await deliverWebhook(api, event)).status];
      else if (order === 'webhook-first')
        statuses = [(await deliverWebhook(api, event)).status, (await finalize(api, token, intentId)).status];
      else
        statuses = (
          await Promise.all([
            finalize(api, token, intentId),
            deliverWebhook(api, event),
            finalize(api, token, intentId),
            deliverWebhook(api, event),
          ])
        ).map((a) => a.status);
      const orders = await ordersOfCart(cartId);
      const { charges } = await chargesOf(api, [cartId]);
      results.push(`${order}:orders=${orders.length},charges=${charges},answers=${split(statuses)}`);
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(orders).toHaveLength(1);
      expect(charges).toBe(1);
    }
    report('finalize+webhook', { cases: results.join(' '), violations: 0 });
  });

  test('one webhook event delivered 10 times concurrently changes state once', async () => {
    const token = await readyCart(api, tee);
    const intentId = await pay(api, token);
    const cartId = await cartIdOf(api, token);
    const event = succeededEvent(intentId, cartId, 2764);
    const answers = await Promise.all(Array.from({ length: 10 }, () => timed(() => deliverWebhook(api, event))));
    const orders = await ordersOfCart(cartId);
    report(
      'webhook×10',
      {
        orders: orders.length,
        answers: split(answers.map((a) => a.value.status)),
        violations: orders.length === 1 ? 0 : 1,
      },
      answers.map((a) => a.ms),
    );
    expect(answers.every((a) => a.value.status === 200)).toBe(true);
    expect(orders).toHaveLength(1);
  });

  test('a second tab finalizing after the first, and a client retrying after a timeout, get the same order', async () => {
    const token = await readyCart(api, tee);
    const intentId = await pay(api, token);
    const cartId = await cartIdOf(api, token);
    // The first tab's request is cut off by the client before the answer arrives (a timeout).
    const controller = new AbortController();
    const cut = fetch(`${api.baseUrl}${S}/cart/finalize`, {
      method: 'POST',
      headers: { 'recipient-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ payment_intent_id: intentId }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    controller.abort();
    await cut;
    const retry = await finalize(api, token, intentId);
    const secondTab = await finalize(api, token);
    const orders = await ordersOfCart(cartId);
    const { charges } = await chargesOf(api, [cartId]);
    report('retry+second-tab', {
      orders: orders.length,
      charges,
      answers: split([retry.status, secondTab.status]),
      violations: orders.length === 1 && charges === 1 ? 0 : 1,
    });
    expect(retry.status).toBe(200);
    expect(secondTab.status).toBe(200);
    expect(secondTab.body.orderDetails.id).toBe(retry.body.orderDetails.id);
    expect(orders).toHaveLength(1);
    expect(charges).toBe(1);
  });
});

describe('a gift card is never spent twice', () => {
  for (const n of [50, 200]) {
    test(`one gift card redeemed by ${n} carts at once: taken ≤ balance, never below zero, ledger matches, losers refunded`, async () => {
      const B = 10_000;
      const card = await giftCard(api, B, `RACE${n}`);
      // Each cart owes 129.00 + tax + shipping > B: the card alone never covers one, the rest is paid by card.
      const tokens = await pool(n, 8, () => readyCart(api, headphones, 1, card.code));
      const intents = await pool(n, 8, (i) => pay(api, tokens[i]!));
      const cartIds = await Promise.all(tokens.map((t) => cartIdOf(api, t)));

      const answers = await Promise.all(tokens.map((token, i) => timed(() => finalize(api, token, intents[i]))));
      const statuses = answers.map((a) => a.value.status);
      const balance = (
        await api.db
          .selectFrom('gift_cards')
          .select('balance_cents')
          .where('id', '=', card.id)
          .executeTakeFirstOrThrow()
      ).balance_cents;
      const ledger = (await debitsOf(card.id)).reduce((sum, d) => sum + d.amount_cents, 0);
      const orders = await api.db
        .selectFrom('orders')
        .select(['cart_id', 'total_cents'])
        .where('cart_id', 'in', cartIds)
        .execute();
      const { charges, refunds } = await chargesOf(api, cartIds);
      const taken = B - balance;
      const violations =
        statuses.filter((s) => s !== 200 && s !== 409).length +
        (taken <= B ? 0 : 1) +
        (balance >= 0 ? 0 : 1) +
        (ledger === taken ? 0 : 1) +
        (charges === orders.length ? 0 : 1) +
        (charges + refunds === n ? 0 : 1);
      report(
        `giftcard×${n}`,
        { B, taken, balance, ledger, orders: orders.length, charges, refunds, answers: split(statuses), violations },
        answers.map((a) => a.ms),
      );

      expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
      expect(taken).toBeLessThanOrEqual(B);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(ledger).toBe(taken);
      // Every paid cart either became an order or had its payment given back: nobody pays without an order.
      expect(charges).toBe(orders.length);
      expect(charges + refunds).toBe(n);
      // Each 409 told the shopper their money came back.
      for (const a of answers.filter((x) => x.value.status === 409)) expect(a.value.body.message).toContain('refunded');
    });
  }
});

describe('payment intent states', () => {
  test('an order is never placed unless the provider says succeeded; a declined payment holds nothing', async () => {
    const card = await giftCard(api, 500);
    const token = await readyCart(api, tee, 1, card.code);
    const intentId = (await api.call('POST', `${S}/cart/checkout`, { token })).body.paymentIntent.id;
    const declined = await api.call('POST', `/test_processor/payment_intents/${intentId}/confirm`, {
      body: { card: { number: '4000000000000002', exp_month: 12, exp_year: 2040, cvc: '123' } },
    });
    const attempts = await Promise.all(Array.from({ length: 5 }, () => finalize(api, token, intentId)));
    const cartId = await cartIdOf(api, token);
    const balance = (
      await api.db.selectFrom('gift_cards').select('balance_cents').where('id', '=', card.id).executeTakeFirstOrThrow()
    ).balance_cents;
    const orders = await ordersOfCart(cartId);
    report('declined', {
      orders: orders.length,
      giftcard_balance: `${balance}/500`,
      answers: split([declined.status, ...attempts.map((a) => a.status)]),
      violations: orders.length + (balance === 500 ? 0 : 1),
    });
    expect(declined.status).toBe(402);
    expect(attempts.every((a) => a.status === 402)).toBe(true);
    expect(orders).toHaveLength(0);
    expect(balance).toBe(500);
  });

  test('a cart changed after payment is refused with 409 and its payment refunded once; paying again places the order', async () => {
    const token = await readyCart(api, tee);
    const first = await pay(api, token);
    const cartId = await cartIdOf(api, token);
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
    const refused = await Promise.all(Array.from({ length: 5 }, () => finalize(api, token, first)));
    const afterRefusal = await chargesOf(api, [cartId]);
    const second = await pay(api, token);
    const placed = await finalize(api, token, second);
    const final = await chargesOf(api, [cartId]);
    const orders = await ordersOfCart(cartId);
    report('changed-after-payment', {
      refused: split(refused.map((r) => r.status)),
      refunds: final.refunds,
      charges: final.charges,
      orders: orders.length,
      violations: final.charges === 1 && final.refunds === 1 && orders.length === 1 ? 0 : 1,
    });
    expect(refused.every((r) => r.status === 409)).toBe(true);
    expect(afterRefusal).toMatchObject({ charges: 0, refunds: 1 });
    expect(second).not.toBe(first);
    expect(placed.status).toBe(200);
    expect(orders).toEqual([{ id: placed.body.orderDetails.id, payment_intent_id: second }]);
    expect(final).toMatchObject({ charges: 1, refunds: 1, keptCents: 4929 });
  });

  test('checking out again after paying for a cart that then changed refunds the first payment before opening a new one', async () => {
    const token = await readyCart(api, tee);
    const first = await pay(api, token);
    const cartId = await cartIdOf(api, token);
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
    const again = await api.call('POST', `${S}/cart/checkout`, { token });
    expect(again.body.paymentIntent.id).not.toBe(first);
    expect(await chargesOf(api, [cartId])).toMatchObject({ charges: 0, refunds: 1 });
  });
});

describe('the client never sets a price', () => {
  test('extra price, total, currency and discount fields and bad quantities on every cart and checkout call are refused or ignored', async () => {
    const token = newToken();
    const extras = { price: '0.01', total: '0.01', currency: 'eur', discount: '99.00', unit_price: 1, amount: 1 };
    const badQuantities: unknown[] = [
      -1,
      0,
      0.5,
      1e9,
      '1',
      '2',
      'abc',
      null,
      true,
      [],
      {},
      1e308,
      Number.MAX_SAFE_INTEGER + 2,
    ];
    const statuses: number[] = [];
    const expectStatus = async (answer: Promise<{ status: number }>, allowed: number[]) => {
      const { status } = await answer;
      statuses.push(status);
      expect(allowed).toContain(status);
    };
    for (const quantity of badQuantities) {
      await expectStatus(
        api.call('POST', `${S}/cart/cart_line_items`, {
          token,
          body: { cart_line_item: { product_variant_id: tee, quantity, ...extras }, ...extras },
        }),
        [422],
      );
    }
    await expectStatus(
      api.call('POST', `${S}/cart/cart_line_items`, {
        token,
        body: { cart_line_item: { product_variant_id: tee, quantity: 2, ...extras }, ...extras },
      }),
      [201],
    );
    const line = (await api.call('GET', `${S}/cart`, { token })).body.cartItems[0];
    for (const quantity of badQuantities) {
      await expectStatus(
        api.call('PATCH', `${S}/cart/cart_line_items/${line.id}`, {
          token,
          body: { cart_line_item: { quantity, ...extras }, ...extras },
        }),
        [422],
      );
    }
    await expectStatus(
      api.call('PATCH', `${S}/cart/cart_line_items/${line.id}`, {
        token,
        body: { cart_line_item: { quantity: 3, ...extras }, ...extras },
      }),
      [200],
    );
    await expectStatus(
      api.call('PUT', `${S}/cart`, {
        token,
        body: { cart: { ...(await import('./support/test-app.ts')).ADDRESS, ...extras }, ...extras },
      }),
      [200],
    );
    await expectStatus(
      api.call('POST', `${S}/gift_cards/apply`, {
        token,
        body: { gift_card: { code: 'ACME-25', ...extras, balance: '9999.00' }, ...extras },
      }),
      [200],
    );
    const cart = (await api.call('GET', `${S}/cart`, { token })).body;
    const checkout = await api.call('POST', `${S}/cart/checkout`, { token, body: extras });
    statuses.push(checkout.status);

    // The server's own recomputation: 3 × 20.00, 8.25 % tax, free shipping over 75.00 does not apply.
    const sub = 3 * 2000;
    const tax = Math.round(sub * 0.0825);
    const expected = sub + tax + 599 - 2500;
    expect(cart.subTotal).toBe('60.00');
    expect(cart.total).toBe((expected / 100).toFixed(2));
    expect(checkout.body.paymentIntent.amount).toBe((expected / 100).toFixed(2));
    expect(checkout.body.paymentIntent.currency).toBe('usd');
    const intentId = checkout.body.paymentIntent.id;
    await api.call('POST', `/test_processor/payment_intents/${intentId}/confirm`, {
      body: { card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' }, ...extras },
    });
    const order = await api.call('POST', `${S}/cart/finalize`, {
      token,
      body: { payment_intent_id: intentId, ...extras },
    });
    statuses.push(order.status);
    expect(order.status).toBe(200);
    expect(order.body.orderDetails.total).toBe((expected / 100).toFixed(2));
    report('tampering', { calls: statuses.length, answers: split(statuses), charged_cents: expected, violations: 0 });
  });

  test('a price changed after a build: adding from the old page and finalizing charge the new price', async () => {
    const variant = await variantId(api.db, 'CERAMIC-MUG');
    const oldPrice = (
      await api.db
        .selectFrom('product_variants')
        .select('price_cents')
        .where('id', '=', Number(variant))
        .executeTakeFirstOrThrow()
    ).price_cents;
    // The static page was built with oldPrice; the catalog changes before the shopper clicks.
    await api.db
      .updateTable('product_variants')
      .set({ price_cents: oldPrice + 700 })
      .where('id', '=', Number(variant))
      .execute();
    try {
      const token = newToken();
      const added = await api.call('POST', `${S}/cart/cart_line_items`, {
        token,
        body: { cart_line_item: { product_variant_id: variant, quantity: 1, price: (oldPrice / 100).toFixed(2) } },
      });
      expect(added.body.subTotal).toBe(((oldPrice + 700) / 100).toFixed(2));
      await api.call('PUT', `${S}/cart`, { token, body: { cart: (await import('./support/test-app.ts')).ADDRESS } });
      const intentId = await pay(api, token);
      const order = await finalize(api, token, intentId);
      expect(order.body.orderDetails.subTotal).toBe(((oldPrice + 700) / 100).toFixed(2));
      report('price-changed', { old_cents: oldPrice, charged_subtotal_cents: oldPrice + 700, violations: 0 });
    } finally {
      await api.db
        .updateTable('product_variants')
        .set({ price_cents: oldPrice })
        .where('id', '=', Number(variant))
        .execute();
    }
  });

  test('every order of this file was charged exactly the server’s recomputation', async () => {
    const orders = await api.db.selectFrom('orders').selectAll().execute();
    let violations = 0;
    for (const order of orders) {
      const details = order.details;
      const subtotal = details.cartItems.reduce((sum, item) => sum + Math.round(Number(item.price) * 100), 0);
      const total = Math.max(0, order.subtotal_cents + order.tax_cents + order.shipping_cents - order.gift_cards_cents);
      if (subtotal !== order.subtotal_cents || total !== order.total_cents) violations++;
      if (order.payment_intent_id) {
        const intent = await api.db
          .selectFrom('payment_intents')
          .select(['amount_cents', 'status'])
          .where('id', '=', order.payment_intent_id)
          .executeTakeFirstOrThrow();
        if (intent.amount_cents !== order.total_cents || intent.status !== 'succeeded') violations++;
      } else if (order.total_cents !== 0) violations++;
    }
    report('intent=recomputation', { orders: orders.length, violations });
    expect(orders.length).toBeGreaterThan(0);
    expect(violations).toBe(0);
  });
});
