import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/connect.ts';
import { ADDRESS, newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

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
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
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
      fc.record({
        cart_line_item: fc.dictionary(
          fc.constantFrom('quantity', 'product_variant_id', 'bundle_id', 'price'),
          fc.anything(),
        ),
      }),
      fc.record({ gift_card: fc.record({ code: fc.anything() }) }),
      fc.record({
        cart: fc.dictionary(fc.constantFrom('first_name', 'email', 'country', 'zip', 'state'), fc.anything()),
      }),
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
        const res = await api.call(
          'GET',
          `/store_front/${encodeURIComponent(segment)}/products/${encodeURIComponent(segment)}`,
          {
            headers: {
              'recipient-token': safeHeader,
              'allowed-recipient-token': safeHeader,
              browser_token: safeHeader,
            },
          },
        );
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });

  test('a refused change leaves the cart exactly as it was', async () => {
    const token = newToken();
    const before = await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { product_variant_id: tee, quantity: 2 } },
    });
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { product_variant_id: tee, quantity: 98 } },
    });
    await api.call('PATCH', `${S}/cart/cart_line_items/${before.body.cartItems[0].id}`, {
      token,
      body: { cart_line_item: { quantity: -4 } },
    });
    expect((await api.call('GET', `${S}/cart`, { token })).body).toEqual(before.body);
  });

  test('a request body over 64 KB is refused with 413', async () => {
    const res = await api.call('PUT', `${S}/cart`, {
      token: newToken(),
      rawBody: JSON.stringify({ cart: { first_name: 'x'.repeat(70_000) } }),
    });
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

describe('a NUL character in any input is refused, never a 500', () => {
  const NUL = '\u0000';
  const q = (value: string) => encodeURIComponent(value);

  test.each([
    ['a query string (q)', `${S}/products?q=${q(`tee${NUL}`)}`],
    ['a query string (custom_domain)', `/store_front?custom_domain=${q(`shop.acme.test${NUL}`)}`],
    ['a query string key', `${S}/products?${q(`q${NUL}`)}=tee`],
    ['a path parameter (slug)', `/store_front/${q(`acme${NUL}`)}/products`],
    ['a path parameter (order id)', `/cart/${q(`00000000-0000-4000-8000-000000000000${NUL}`)}`],
  ])('in %s: 400', async (_, path) => {
    const res = await api.call('GET', path);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ message: 'The request contains a NUL character, which is not allowed.' });
  });

  test.each([
    [
      'an address field',
      'PUT',
      `${S}/cart`,
      { cart: { ...ADDRESS, address_line1: `12 Main St${NUL}` } },
      'address_line1',
    ],
    ['a gift card code', 'POST', `${S}/gift_cards/apply`, { gift_card: { code: `ACME-25${NUL}` } }, 'code'],
    ['the verify email', 'POST', `${S}/allowed_users/verify`, { email: `a${NUL}@example.com` }, 'email'],
    ['a key of the body', 'POST', `${S}/cart/checkout`, { [`amount${NUL}`]: 1 }, `amount${NUL}`],
  ])('in %s of a JSON body: 422 naming the field, and nothing is written', async (_, method, path, body, field) => {
    const token = newToken();
    const res = await api.call(method, path, { token, body });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toEqual({
      message: 'This field is not valid.',
      errors: { [field]: ['This field is not valid.'] },
    });
    expect(await api.db.selectFrom('carts').select('id').where('token', '=', token).executeTakeFirst()).toBeUndefined();
  });

  test('a lone surrogate, which has no UTF-8 form, is refused like a NUL', async () => {
    const token = newToken();
    const res = await api.call('PUT', `${S}/cart`, {
      token,
      body: { cart: { ...ADDRESS, city: 'Spring\ud800field' } },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors).toEqual({ city: ['This field is not valid.'] });
  });

  test('other control characters are ordinary input: validated like any text, never a 500', async () => {
    for (const ch of ['\u0001', '\u0007', '\u001b', '\u007f', '\u0085', '\u2028', '\ufffe']) {
      const token = newToken();
      await api.call('POST', `${S}/cart/cart_line_items`, {
        token,
        body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
      });
      const address = await api.call('PUT', `${S}/cart`, {
        token,
        body: { cart: { ...ADDRESS, city: `Spring${ch}field` } },
      });
      const code = await api.call('POST', `${S}/gift_cards/apply`, {
        token,
        body: { gift_card: { code: `ACME${ch}` } },
      });
      expect([address.status, code.status], JSON.stringify(ch)).toEqual([200, 422]);
    }
    // In URLs, also bytes that are no UTF-8 at all (a lone surrogate, an overlong NUL, 0xFF).
    for (const encoded of [
      '%01',
      '%07',
      '%1B',
      '%7F',
      '%C2%85',
      '%E2%80%A8',
      '%ED%A0%80',
      '%EF%BF%BE',
      '%C0%80',
      '%FF',
    ]) {
      for (const path of [
        `${S}/products?q=tee${encoded}`,
        `/store_front?custom_domain=x${encoded}.test`,
        `/store_front/acme${encoded}/products`,
        `/cart/${encoded}`,
      ]) {
        expect((await api.call('GET', path)).status, path).toBeLessThan(500);
      }
    }
  });
});

describe('request bodies must be JSON', () => {
  const line = () => JSON.stringify({ cart_line_item: { product_variant_id: tee, quantity: 1 } });

  test.each([
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    '',
  ])('a body sent as %j is refused with 415, and nothing is written', async (type) => {
    const token = newToken();
    const res = await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      rawBody: line(),
      headers: { 'content-type': type },
    });
    expect(res.status, res.text).toBe(415);
    expect(res.body).toEqual({ message: 'Request bodies must be JSON (Content-Type: application/json).' });
    expect(await api.db.selectFrom('carts').select('id').where('token', '=', token).executeTakeFirst()).toBeUndefined();
  });

  test('a form post to the gift card, address and verify calls is refused with 415 too', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      (
        await api.call('POST', `${S}/gift_cards/apply`, {
          token: newToken(),
          rawBody: 'gift_card[code]=ACME-25',
          headers: form,
        })
      ).status,
    ).toBe(415);
    expect(
      (await api.call('PUT', `${S}/cart`, { token: newToken(), rawBody: 'cart[first_name]=Ada', headers: form }))
        .status,
    ).toBe(415);
    expect(
      (await api.call('POST', `${S}/allowed_users/verify`, { rawBody: 'email=a@example.com', headers: form })).status,
    ).toBe(415);
  });

  test('JSON with a charset or a +json media type is read', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json']) {
      const res = await api.call('POST', `${S}/cart/cart_line_items`, {
        token: newToken(),
        rawBody: line(),
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(201);
    }
  });

  test('an empty body stays accepted where the contract allows one (cart/checkout), whatever it is labelled', async () => {
    for (const headers of [
      {},
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ] as Record<string, string>[]) {
      const res = await api.call('POST', `${S}/cart/checkout`, { token: newToken(), rawBody: '', headers });
      expect(res.status, JSON.stringify(headers)).toBe(422);
      expect(res.body.errors.cart).toEqual(['Your cart is empty.']);
    }
  });
});

describe('database outage', () => {
  test('an unreachable database answers 503 with Retry-After, not 500', async () => {
    const db = openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', poolSize: 1 });
    const app = createApp({ db, payments: null, config: loadConfig({ NODE_ENV: 'test' }) });
    const res = await app.request('/api/store_front/acme');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ message: 'The service is temporarily unavailable. Please try again.' });
    await db.destroy();
  });
});
