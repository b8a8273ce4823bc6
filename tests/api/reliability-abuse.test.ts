/**
 * Reliability (docs/reliability.md), abuse and access: unguessable tokens and ids; identical errors for every bad
 * code; rate limits with Retry-After; one shopper's cart is nobody else's; restricted stores refuse
 * every call without a valid token. Every test prints its figure.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VIP_DOMAIN_TOKEN, VIP_RECIPIENT } from '../../src/server/db/demo-data.ts';
import { pool, report, split } from './support/figures.ts';
import { acmeId, cartIdOf, finalize, giftCard, pay, readyCart, S } from './support/shopper.ts';
import { ADDRESS, newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';
import { inOneWindow } from './support/rate-window.ts';

let api: TestApp;
let tee: string;
beforeAll(async () => {
  // Limits as shipped, and the client address from X-Forwarded-For so one test can play many clients.
  api = await startTestApp({ TRUST_PROXY: 'true' });
  tee = await variantId(api.db, 'TEE-M-RED');
});
afterAll(async () => api?.close());

let clientSeq = 0;
/** A fresh client address, so one test's hits never count against another's. */
const client = () => ({
  'x-forwarded-for': `10.${(++clientSeq >> 16) & 255}.${(clientSeq >> 8) & 255}.${clientSeq & 255}`,
});

describe('gift card codes', () => {
  test('unknown, expired and empty codes answer byte-identical errors', async () => {
    const expired = await giftCard(api, 5000, 'OLD');
    await api.db
      .updateTable('gift_cards')
      .set({ expires_at: new Date(Date.now() - 86_400_000) })
      .where('id', '=', expired.id)
      .execute();
    const tries = {
      unknown: 'NOPE-1234-5678-9ABC',
      expired: expired.code,
      empty: 'ACME-ZERO',
      lowercaseUnknown: 'nope-0000',
    };
    const answers = await Promise.all(
      Object.values(tries).map((code) =>
        api.call('POST', `${S}/gift_cards/apply`, {
          token: newToken(),
          headers: client(),
          body: { gift_card: { code } },
        }),
      ),
    );
    const shapes = answers.map((a) => `${a.status} ${a.headers.get('content-type')} ${a.text}`);
    report('giftcard-identical-errors', {
      kinds: shapes.length,
      distinct_answers: new Set(shapes).size,
      violations: new Set(shapes).size - 1,
    });
    expect(new Set(shapes).size).toBe(1);
    expect(answers[0]!.status).toBe(422);
  });
});

describe('rate limits', () => {
  test('1,000 wrong gift card codes from one client: all but the first few are throttled with 429 and Retry-After', async () => {
    const from = client();
    const answers = await inOneWindow(api, () =>
      pool(1000, 16, (i) =>
        api.call('POST', `${S}/gift_cards/apply`, {
          token: newToken(),
          headers: from,
          body: { gift_card: { code: `WRONG-${i}` } },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    const throttled = answers.filter((a) => a.status === 429);
    const retryAfter = throttled.map((a) => Number(a.headers.get('retry-after')));
    const share = throttled.length / answers.length;
    report('ratelimit-per-client', {
      wrong_codes: 1000,
      throttled: throttled.length,
      share: `${(share * 100).toFixed(1)}%`,
      answers: split(statuses),
      limit: api.config.RATE_LIMIT_GIFT_CARD_PER_CLIENT,
      violations: statuses.filter((s) => s !== 422 && s !== 429).length,
    });
    expect(statuses.filter((s) => s !== 422 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 422)).toHaveLength(api.config.RATE_LIMIT_GIFT_CARD_PER_CLIENT);
    expect(retryAfter.every((s) => Number.isInteger(s) && s >= 1 && s <= api.config.RATE_LIMIT_WINDOW_SECONDS)).toBe(
      true,
    );
  });

  test('1,000 wrong codes on one cart from 1,000 client addresses are throttled per cart', async () => {
    const token = newToken();
    const answers = await inOneWindow(api, () =>
      pool(1000, 16, (i) =>
        api.call('POST', `${S}/gift_cards/apply`, {
          token,
          headers: client(),
          body: { gift_card: { code: `WRONG-${i}` } },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    const throttled = statuses.filter((s) => s === 429).length;
    report('ratelimit-per-cart', {
      wrong_codes: 1000,
      throttled,
      share: `${((throttled / 1000) * 100).toFixed(1)}%`,
      answers: split(statuses),
      limit: api.config.RATE_LIMIT_GIFT_CARD_PER_CART,
      violations: statuses.filter((s) => s !== 422 && s !== 429).length,
    });
    expect(statuses.filter((s) => s === 422)).toHaveLength(api.config.RATE_LIMIT_GIFT_CARD_PER_CART);
    expect(answers.filter((a) => a.status === 429).every((a) => a.headers.get('retry-after'))).toBe(true);
  });

  test('allowed_users/verify is limited per client and per email', async () => {
    const from = client();
    const [perClient, perEmail] = await inOneWindow(api, async () => [
      await pool(60, 8, (i) =>
        api.call('POST', '/store_front/vip/allowed_users/verify', {
          headers: from,
          body: { email: `someone${i}@example.com` },
        }),
      ),
      await pool(30, 8, () =>
        api.call('POST', '/store_front/vip/allowed_users/verify', {
          headers: client(),
          body: { email: 'target@example.com' },
        }),
      ),
    ]);
    report('ratelimit-verify', {
      per_client: split(perClient.map((a) => a.status)),
      per_email: split(perEmail.map((a) => a.status)),
      violations: 0,
    });
    expect(perClient.filter((a) => a.status === 202)).toHaveLength(api.config.RATE_LIMIT_VERIFY_PER_CLIENT);
    expect(perEmail.filter((a) => a.status === 202)).toHaveLength(api.config.RATE_LIMIT_VERIFY_PER_EMAIL);
    expect([...perClient, ...perEmail].filter((a) => a.status === 429).every((a) => a.headers.get('retry-after'))).toBe(
      true,
    );
  });
});

describe('carts and orders cannot be found or borrowed', () => {
  test('10,000 random cart tokens and 10,000 random order ids find nothing', async () => {
    // A few real carts and orders exist, so "nothing" is not an empty database talking.
    const real = await readyCart(api, tee);
    await finalize(api, real, await pay(api, real));
    const carts = await pool(10_000, 24, () => api.call('GET', `${S}/cart`, { token: newToken() }));
    const orders = await pool(10_000, 24, () => api.call('GET', `/cart/${crypto.randomUUID()}`));
    const foundCarts = carts.filter(
      (a) => a.status !== 200 || a.body.cartItems.length > 0 || a.body.giftCards.length > 0 || a.body.address !== null,
    ).length;
    const foundOrders = orders.filter((a) => a.status !== 404).length;
    report('random-ids', {
      cart_tokens: carts.length,
      carts_found: foundCarts,
      order_ids: orders.length,
      orders_found: foundOrders,
      violations: foundCarts + foundOrders,
    });
    expect(foundCarts).toBe(0);
    expect(foundOrders).toBe(0);
  }, 300_000);

  test("a cart is never readable or writable with another shopper's token", async () => {
    const card = await giftCard(api, 1000, 'MINE');
    const alice = await readyCart(api, tee, 2, card.code);
    const aliceCart = (await api.call('GET', `${S}/cart`, { token: alice })).body;
    const lineId = aliceCart.cartItems[0].id;
    const intentId = (await api.call('POST', `${S}/cart/checkout`, { token: alice })).body.paymentIntent.id;
    const bob = newToken();
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token: bob,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
    const attempts = [
      await api.call('GET', `${S}/cart`, { token: bob }),
      await api.call('PATCH', `${S}/cart/cart_line_items/${lineId}`, {
        token: bob,
        body: { cart_line_item: { quantity: 5 } },
      }),
      await api.call('DELETE', `${S}/cart/cart_line_items/${lineId}`, { token: bob }),
      await api.call('POST', `${S}/gift_cards/${card.id}/remove`, {
        token: bob,
        body: { gift_card: { code: card.code } },
      }),
      await api.call('POST', `${S}/cart/finalize`, { token: bob, body: { payment_intent_id: intentId } }),
      // Tokens are exact: a prefix or a case change of Alice's token is another (empty) cart.
      await api.call('GET', `${S}/cart`, { token: alice.slice(0, -1) + (alice.endsWith('A') ? 'B' : 'A') }),
      await api.call('GET', `${S}/cart`, {
        token: alice.toUpperCase() === alice ? alice.toLowerCase() : alice.toUpperCase(),
      }),
    ];
    const leaked = attempts.filter((a) => a.status === 200 && JSON.stringify(a.body).includes(lineId)).length;
    const after = (await api.call('GET', `${S}/cart`, { token: alice })).body;
    report('cart-isolation', {
      attempts: attempts.length,
      answers: split(attempts.map((a) => a.status)),
      leaked,
      alice_unchanged: String(JSON.stringify(after) === JSON.stringify(aliceCart)),
      violations: leaked + (JSON.stringify(after) === JSON.stringify(aliceCart) ? 0 : 1),
    });
    expect(leaked).toBe(0);
    expect(attempts[1]!.status).toBe(404);
    expect(attempts[2]!.status).toBe(404);
    expect(attempts[3]!.status).toBe(404);
    expect(attempts[4]!.status).toBe(422);
    expect(after).toEqual(aliceCart);
  });
});

describe('restricted stores', () => {
  test('every API call of a restricted store is refused without a valid token, and served with one', async () => {
    const vip = await api.db.selectFrom('stores').select('id').where('slug', '=', 'vip').executeTakeFirstOrThrow();
    const product = await api.db
      .selectFrom('products')
      .select('id')
      .where('store_id', '=', vip.id)
      .executeTakeFirstOrThrow();
    const variant = await api.db
      .selectFrom('product_variants')
      .select('id')
      .where('store_id', '=', vip.id)
      .executeTakeFirstOrThrow();
    // An order placed in the restricted store with access, read back without it.
    const access = { 'allowed-recipient-token': VIP_RECIPIENT.uuid };
    const token = newToken();
    await api.call('POST', '/store_front/vip/cart/cart_line_items', {
      token,
      headers: access,
      body: { cart_line_item: { product_variant_id: variant.id, quantity: 1 } },
    });
    await api.call('PUT', '/store_front/vip/cart', { token, headers: access, body: { cart: ADDRESS } });
    const intentId = (await api.call('POST', '/store_front/vip/cart/checkout', { token, headers: access })).body
      .paymentIntent.id;
    await api.call('POST', `/test_processor/payment_intents/${intentId}/confirm`, {
      body: { card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } },
    });
    const order = await api.call('POST', '/store_front/vip/cart/finalize', {
      token,
      headers: access,
      body: { payment_intent_id: intentId },
    });
    expect(order.status).toBe(200);

    const V = '/store_front/vip';
    const calls: [string, string, unknown?][] = [
      ['GET', V],
      ['GET', `${V}/products`],
      ['GET', `${V}/products/${product.id}`],
      ['GET', `${V}/products/${product.id}/product_variants`],
      ['GET', `${V}/bundles`],
      ['GET', `${V}/bundles/1`],
      ['GET', `${V}/bundles/1/bundle_items`],
      ['GET', `${V}/cart`],
      ['PUT', `${V}/cart`, { cart: ADDRESS }],
      ['POST', `${V}/cart/cart_line_items`, { cart_line_item: { product_variant_id: variant.id, quantity: 1 } }],
      ['PATCH', `${V}/cart/cart_line_items/${crypto.randomUUID()}`, { cart_line_item: { quantity: 1 } }],
      ['DELETE', `${V}/cart/cart_line_items/${crypto.randomUUID()}`],
      ['POST', `${V}/gift_cards/apply`, { gift_card: { code: 'ANY' } }],
      ['POST', `${V}/gift_cards/${crypto.randomUUID()}/remove`, {}],
      ['POST', `${V}/cart/checkout`],
      ['POST', `${V}/cart/finalize`, {}],
      ['GET', `/cart/${order.body.orderDetails.id}`],
    ];
    const badTokens: Record<string, string>[] = [
      {},
      { 'allowed-recipient-token': crypto.randomUUID() },
      { 'allowed-domain-token': 'not-the-token' },
      { browser_token: 'unverified-browser-token' },
      { 'allowed-domain-token': VIP_DOMAIN_TOKEN.toUpperCase() },
    ];
    let refused = 0;
    let served = 0;
    const wrong: string[] = [];
    for (const [method, path, body] of calls) {
      for (const headers of badTokens) {
        const answer = await api.call(method, path, { token, headers, ...(body !== undefined ? { body } : {}) });
        if (answer.status === 422 && answer.body?.message === 'The store has restricted access. Please contact Admin.')
          refused++;
        else wrong.push(`${method} ${path} ${JSON.stringify(headers)} → ${answer.status}`);
      }
      for (const headers of [access, { 'allowed-domain-token': VIP_DOMAIN_TOKEN }]) {
        const answer = await api.call(method, path, { token, headers, ...(body !== undefined ? { body } : {}) });
        if (answer.body?.message === 'The store has restricted access. Please contact Admin.')
          wrong.push(`${method} ${path} with access → refused`);
        else served++;
      }
    }
    // Nothing of the restricted store shows through the public store's lists or search.
    const acmeSearch = await api.call('GET', `${S}/products?q=VIP`);
    const acmeList = await api.call('GET', `${S}/products?per_page=100`);
    const leak = [acmeSearch.text, acmeList.text].filter((t) => t.includes('VIP Reserve')).length;
    report('restricted-store', { calls: calls.length, refused, served, leaks: leak, violations: wrong.length + leak });
    expect(wrong).toEqual([]);
    expect(leak).toBe(0);
    expect(await acmeId(api)).toBeGreaterThan(0);
    expect(await cartIdOf(api, token)).toBeTruthy();
  });
});
