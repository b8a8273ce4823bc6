/**
 * Cart tokens the API did not issue are refused, and anonymous carts are limited per client
 * (docs/decisions/111). Prints the forged-token and cart-creation-flood figures.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cartTokenSigner } from '../../src/server/carts/cart-tokens.ts';
import { databaseLimitStore, type RateLimitStore } from '../../src/server/http/rate-limit.ts';
import { percentile, pool, report, split, timed } from './support/figures.ts';
import { S } from './support/shopper.ts';
import { ADDRESS, newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';
import { inOneWindow } from './support/rate-window.ts';

let api: TestApp;
let tee: string;
/** Rate-limit hits, by key prefix: the only statement the token check could add to a cart call. */
const hits: string[] = [];
/** Database counters that also note each key hit (the app is built before `api` is assigned, the hits come after). */
const countingStore: RateLimitStore = {
  name: 'database',
  hit(key, windowStart, windowMs) {
    hits.push(key);
    return databaseLimitStore(api.db).hit(key, windowStart, windowMs);
  },
};
beforeAll(async () => {
  // The client address from X-Forwarded-For, so one test can play several clients.
  api = await startTestApp({ TRUST_PROXY: 'true' }, { rateLimits: countingStore });
  tee = await variantId(api.db, 'TEE-M-RED');
});
afterAll(async () => api?.close());

let clientSeq = 0;
const client = () => ({ 'x-forwarded-for': `10.20.${(++clientSeq >> 8) & 255}.${clientSeq & 255}` });

const cartCount = async () =>
  (
    await api.db
      .selectFrom('carts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
const addLine = (token: string | undefined, headers: Record<string, string> = {}) =>
  api.call('POST', `${S}/cart/cart_line_items`, {
    ...(token ? { token } : {}),
    headers,
    body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
  });

describe('cart tokens', () => {
  test('a token the API did not issue is refused with 401 on every cart call, and nothing is written', async () => {
    const issued = newToken();
    expect((await addLine(issued)).status).toBe(201);
    const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === 'A' ? 'B' : 'A') + t.slice(i + 1);
    const forged = [
      'A'.repeat(32),
      'A'.repeat(54),
      // Near misses of a real token: a changed random part, a changed signature, another secret's signature.
      flip(issued, 3),
      flip(issued, issued.length - 2),
      issued.toLowerCase() === issued ? issued.toUpperCase() : issued.toLowerCase(),
      cartTokenSigner('another-secret-of-at-least-32-characters').issue(),
      ...Array.from({ length: 200 }, () => randomBytes(24).toString('base64url')),
    ];
    const before = await cartCount();
    const calls = (token: string) => [
      api.call('GET', `${S}/cart`, { token }),
      addLine(token),
      api.call('PUT', `${S}/cart`, { token, body: { cart: ADDRESS } }),
      api.call('POST', `${S}/gift_cards/apply`, { token, headers: client(), body: { gift_card: { code: 'ACME-25' } } }),
      api.call('POST', `${S}/cart/checkout`, { token }),
      api.call('POST', `${S}/cart/finalize`, { token }),
    ];
    const answers = (await pool(forged.length, 8, (i) => Promise.all(calls(forged[i]!)))).flat();
    const statuses = answers.map((a) => a.status);
    const created = (await cartCount()) - before;
    const accepted = statuses.filter((s) => s !== 401).length;
    report('forged-cart-tokens', {
      tokens: forged.length,
      calls: answers.length,
      answers: split(statuses),
      carts_created: created,
      violations: accepted + created,
    });
    expect(statuses.every((s) => s === 401)).toBe(true);
    expect(answers[0]!.body).toEqual({ message: 'Your cart session is not valid. Please reload the page.' });
    expect(answers[0]!.headers.get('recipient-token')).toBeNull();
    expect(created).toBe(0);
    // The real token still works.
    expect((await api.call('GET', `${S}/cart`, { token: issued })).body.cartItems).toHaveLength(1);
  });

  test('a token the API issued is checked without a statement: reading and adding count nothing', async () => {
    const token = newToken();
    hits.length = 0;
    expect((await addLine(token)).status).toBe(201);
    expect((await api.call('GET', `${S}/cart`, { token })).status).toBe(200);
    expect(hits).toEqual([]);
    const fresh = await api.call('GET', `${S}/cart`, { headers: client() });
    expect(fresh.headers.get('recipient-token')).toMatch(/^[A-Za-z0-9_-]{54}$/);
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatch(/^cart:new:client:/);
  });
});

describe('anonymous carts are limited per client', () => {
  test('a flood of anonymous adds from one client makes at most the limit of carts; other clients and shoppers with a cart are not limited', async () => {
    const limit = api.config.RATE_LIMIT_NEW_CARTS_PER_CLIENT;
    const attacker = client();
    const shopper = newToken();
    expect((await addLine(shopper)).status).toBe(201);
    const before = await cartCount();
    const bystanderReads: number[] = [];
    let flooding = true;
    const { flood, shopperAdds, otherClient } = await inOneWindow(api, async () => {
      // Another shopper reads their cart all through the flood, as the issue measured.
      const reads = (async () => {
        while (flooding) bystanderReads.push((await timed(() => api.call('GET', `${S}/cart`, { token: shopper }))).ms);
      })();
      const flood = await pool(1000, 16, () => addLine(undefined, attacker));
      // The attacker's address, but a shopper holding a token: never counted.
      const shopperAdds = await pool(10, 2, () => addLine(shopper, attacker));
      const otherClient = await addLine(undefined, client());
      flooding = false;
      await reads;
      return { flood, shopperAdds, otherClient };
    });
    const statuses = flood.map((a) => a.status);
    const created = (await cartCount()) - before;
    const issued = new Set(flood.map((a) => a.headers.get('recipient-token')).filter(Boolean)).size;
    report(
      'cart-creation-flood',
      {
        anonymous_adds: flood.length,
        limit,
        answers: split(statuses),
        carts_created: created,
        tokens_issued: issued,
        shopper_adds: split(shopperAdds.map((a) => a.status)),
        other_client: otherClient.status,
        bystander_reads: bystanderReads.length,
        violations: (created > limit + 1 ? 1 : 0) + shopperAdds.filter((a) => a.status !== 201).length,
      },
      bystanderReads,
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(limit);
    expect(statuses.filter((s) => s !== 201 && s !== 429)).toEqual([]);
    expect(flood.filter((a) => a.status === 429).every((a) => Number(a.headers.get('retry-after')) >= 1)).toBe(true);
    // The limit's carts plus the other client's one.
    expect(created).toBe(limit + 1);
    expect(shopperAdds.every((a) => a.status === 201)).toBe(true);
    expect(otherClient.status).toBe(201);
    expect(percentile(bystanderReads, 50)).toBeLessThan(250);
  }, 120_000);

  test('leaving recipient-token out does not escape the per-client gift card limit', async () => {
    const from = client();
    const answers = await inOneWindow(api, () =>
      pool(40, 4, () =>
        api.call('POST', `${S}/gift_cards/apply`, { headers: from, body: { gift_card: { code: 'WRONG-CODE' } } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 422)).toHaveLength(
      Math.min(api.config.RATE_LIMIT_GIFT_CARD_PER_CLIENT, api.config.RATE_LIMIT_NEW_CARTS_PER_CLIENT),
    );
    expect(statuses.filter((s) => s !== 422 && s !== 429)).toEqual([]);
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  test('the address the proxy saw counts, not the X-Forwarded-For entries the client wrote before it', async () => {
    // The proxy appends the address it saw (10.99.0.1); everything before it is the client's own writing.
    const answers = await inOneWindow(api, () =>
      pool(40, 4, (i) =>
        api.call('POST', `${S}/gift_cards/apply`, {
          token: newToken(),
          headers: { 'x-forwarded-for': `192.0.2.${i}, 10.99.0.1` },
          body: { gift_card: { code: 'WRONG-CODE' } },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 422)).toHaveLength(api.config.RATE_LIMIT_GIFT_CARD_PER_CLIENT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - api.config.RATE_LIMIT_GIFT_CARD_PER_CLIENT);
  });
});
