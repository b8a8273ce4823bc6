import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/connect.ts';
import { newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
let tee: string;
beforeAll(async () => {
  api = await startTestApp({ RATE_LIMIT_GIFT_CARD_PER_CLIENT: '100000', RATE_LIMIT_GIFT_CARD_PER_CART: '100000' });
  tee = await variantId(api.db, 'TEE-M-RED');
});
afterAll(async () => api?.close());

const S = '/store_front/acme';

describe('hostile input', () => {
  test('random JSON bodies on every cart and checkout call never answer 500', async () => {
    const token = newToken();
    await api.call('POST', `${S}/cart/cart_line_items`, { token, body: { cart_line_item: { product_variant_id: tee, quantity: 1 } } });
    const lineId = (await api.call('GET', `${S}/cart`, { token })).body.cartItems[0].id;
    const routes: [string, string][] = [
      ['POST', `${S}/cart/cart_line_items`],
      ['PATCH', `${S}/cart/cart_line_items/${lineId}`],
      ['PUT', `${S}/cart`],
      ['POST', `${S}/gift_cards/apply`],
      ['POST', `${S}/cart/checkout`],
      ['POST', `${S}/cart/finalize`],
      ['POST', `${S}/allowed_users/verify`],
    ];
    const wrapped = fc.oneof(
      fc.anything(),
      fc.record({ cart_line_item: fc.dictionary(fc.constantFrom('quantity', 'product_variant_id', 'bundle_id', 'price'), fc.anything()) }),
      fc.record({ gift_card: fc.record({ code: fc.anything() }) }),
      fc.record({ cart: fc.dictionary(fc.constantFrom('first_name', 'email', 'country', 'zip', 'state'), fc.anything()) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), wrapped, async ([method, path], body) => {
        const res = await api.call(method, path, { token, rawBody: JSON.stringify(body) ?? 'null' });
        expect(res.status).toBeLessThan(500);
        expect(typeof res.body?.message === 'string' || res.status < 300).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  test('random path segments and headers never answer 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.string({ maxLength: 80 }), async (segment, header) => {
        const safeHeader = header.replace(/[^\x20-\x7e]/g, '');
        const res = await api.call('GET', `/store_front/${encodeURIComponent(segment)}/products/${encodeURIComponent(segment)}`, {
          headers: { 'recipient-token': safeHeader, 'allowed-recipient-token': safeHeader, browser_token: safeHeader },
        });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });

  test('a refused change leaves the cart exactly as it was', async () => {
    const token = newToken();
    const before = await api.call('POST', `${S}/cart/cart_line_items`, { token, body: { cart_line_item: { product_variant_id: tee, quantity: 2 } } });
    await api.call('POST', `${S}/cart/cart_line_items`, { token, body: { cart_line_item: { product_variant_id: tee, quantity: 98 } } });
    await api.call('PATCH', `${S}/cart/cart_line_items/${before.body.cartItems[0].id}`, { token, body: { cart_line_item: { quantity: -4 } } });
    expect((await api.call('GET', `${S}/cart`, { token })).body).toEqual(before.body);
  });

  test('a request body over 64 KB is refused with 413', async () => {
    const res = await api.call('PUT', `${S}/cart`, { token: newToken(), rawBody: JSON.stringify({ cart: { first_name: 'x'.repeat(70_000) } }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'The request body is too large.' });
  });

  test('a streamed (chunked) body over 64 KB is refused with 413 too, and a small one is read', async () => {
    const chunked = (text: string) =>
      fetch(`${api.baseUrl}${S}/cart/cart_line_items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'recipient-token': newToken() },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    const large = await chunked(JSON.stringify({ cart_line_item: { note: 'x'.repeat(70_000) } }));
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ message: 'The request body is too large.' });
    const small = await chunked(JSON.stringify({ cart_line_item: { product_variant_id: tee, quantity: 1 } }));
    expect(small.status).toBe(201);
  });
});

describe('database outage', () => {
  test('an unreachable database answers 503 with Retry-After, not 500', async () => {
    const db = openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', poolSize: 1 });
    const app = createApp({ db, payments: null, mail: { send: async () => {} }, config: loadConfig({ NODE_ENV: 'test' }) });
    const res = await app.request('/api/store_front/acme');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ message: 'The service is temporarily unavailable. Please try again.' });
    await db.destroy();
  });
});
