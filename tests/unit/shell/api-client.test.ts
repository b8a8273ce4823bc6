import { describe, expect, test } from 'vitest';
import {
  addCartLine,
  ApiError,
  applyGiftCard,
  bindCalls,
  changeCartLine,
  checkout,
  createRequester,
  finalize,
  getBundle,
  getCart,
  getOrder,
  getProduct,
  getStore,
  getStoreByDomain,
  listBundleItems,
  listBundles,
  listProducts,
  listProductVariants,
  NetworkError,
  putAddress,
  removeCartLine,
  removeGiftCard,
  verifyAllowedUser,
  type ApiClientOptions,
} from '../../../src/lib/api-client/index.ts';
import type { CookieJar, CookieSpec } from '../../../src/lib/cookies.ts';

type Call = {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
  cache: RequestCache | undefined;
};

function memoryJar(initial: Record<string, string> = {}) {
  const values = { ...initial };
  const writes: CookieSpec[] = [];
  const jar: CookieJar = {
    get: (name) => values[name],
    set: (spec) => {
      writes.push(spec);
      if (spec.value === null) Reflect.deleteProperty(values, spec.name);
      else values[spec.name] = spec.value;
    },
  };
  return { jar, values, writes };
}

/** A fetch that answers from a script, one response per call, and records the calls. */
function scriptedFetch(answers: (Response | Error)[]) {
  const calls: Call[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body as string | undefined,
      cache: init?.cache,
    });
    const next = answers.shift();
    if (!next) throw new Error('no scripted answer left');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetchFn: fetchFn, calls };
}

const everyCall = {
  getStore,
  getStoreByDomain,
  verifyAllowedUser,
  listProducts,
  getProduct,
  listProductVariants,
  listBundles,
  getBundle,
  listBundleItems,
  getCart,
  addCartLine,
  changeCartLine,
  removeCartLine,
  putAddress,
  applyGiftCard,
  removeGiftCard,
  checkout,
  finalize,
  getOrder,
};

/** Every call bound to one requester, as a page loader binds the ones it needs. */
const clientOf = (options: ApiClientOptions) => bindCalls(createRequester(options), everyCall);

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const store = {
  data: {
    id: '1',
    type: 'store',
    attributes: { title: 'Acme', slug: 'acme', faviconImage: null, allowedListsPresent: false, description: null },
  },
};

describe('requests', () => {
  test('paths are relative to the configured base URL and the access headers come from cookies', async () => {
    const { jar } = memoryJar({
      'recipient-token': 'r1',
      'allowed-recipient-token': 'ar1',
      'allowed-domain-token': 'ad1',
      browser_token: 'b1',
    });
    const { fetchFn, calls } = scriptedFetch([json(200, store)]);
    const api = clientOf({ baseUrl: 'http://api.test/api', cookies: jar, fetch: fetchFn });
    await expect(api.getStore('acme')).resolves.toEqual(store);
    expect(calls[0]?.url).toBe('http://api.test/api/store_front/acme');
    const h = calls[0]!.headers;
    expect([
      h.get('recipient-token'),
      h.get('allowed-recipient-token'),
      h.get('allowed-domain-token'),
      h.get('browser_token'),
    ]).toEqual(['r1', 'ar1', 'ad1', 'b1']);
  });

  test('missing cookies send no header', async () => {
    const { fetchFn, calls } = scriptedFetch([json(200, store)]);
    await clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn }).getStoreByDomain('shop.acme.test');
    expect(calls[0]?.url).toBe('/api/store_front?custom_domain=shop.acme.test');
    expect(calls[0]?.headers.has('recipient-token')).toBe(false);
  });

  test('every spec §7 call goes to its method and path', async () => {
    const answers = Array.from({ length: 17 }, () => json(200, {}));
    const { fetchFn, calls } = scriptedFetch(answers);
    const api = clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn });
    await api.listProducts('acme', { page: 2, q: 'tee' });
    await api.getProduct('acme', 'p1');
    await api.listProductVariants('acme', 'p1');
    await api.listBundles('acme');
    await api.getBundle('acme', 'b1');
    await api.listBundleItems('acme', 'b1');
    await api.getCart('acme');
    await api.addCartLine('acme', { cart_line_item: { product_variant_id: 'v1', quantity: 1 } });
    await api.changeCartLine('acme', 'l1', { cart_line_item: { quantity: 3 } });
    await api.removeCartLine('acme', 'l1');
    await api.applyGiftCard('acme', { gift_card: { code: 'GC' } });
    await api.removeGiftCard('acme', 'g1', { gift_card: { code: 'GC' } });
    await api.checkout('acme');
    await api.finalize('acme', { payment_intent_id: 'pi_1' });
    await api.putAddress('acme', { cart: {} as never });
    await api.getOrder('o-1');
    await api.verifyAllowedUser('vip', { email: 'a@b.co', browser_token: 't'.repeat(16) }, 'shop.vip.test');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/store_front/acme/products?page=2&q=tee',
      'GET /api/store_front/acme/products/p1',
      'GET /api/store_front/acme/products/p1/product_variants',
      'GET /api/store_front/acme/bundles',
      'GET /api/store_front/acme/bundles/b1',
      'GET /api/store_front/acme/bundles/b1/bundle_items',
      'GET /api/store_front/acme/cart',
      'POST /api/store_front/acme/cart/cart_line_items',
      'PATCH /api/store_front/acme/cart/cart_line_items/l1',
      'DELETE /api/store_front/acme/cart/cart_line_items/l1',
      'POST /api/store_front/acme/gift_cards/apply',
      'POST /api/store_front/acme/gift_cards/g1/remove',
      'POST /api/store_front/acme/cart/checkout',
      'POST /api/store_front/acme/cart/finalize',
      'PUT /api/store_front/acme/cart',
      'GET /api/cart/o-1',
      'POST /api/store_front/vip/allowed_users/verify?custom_domain=shop.vip.test',
    ]);
    expect(calls[12]?.body).toBe('{}');
    expect(JSON.parse(calls[16]!.body!)).toEqual({ email: 'a@b.co', browser_token: 't'.repeat(16) });
    // The API answers 415 to a body not labelled JSON: every call with a body says it is.
    const withBody = calls.filter((c) => c.body !== undefined);
    expect(withBody.map((c) => `${c.method} ${c.url}`)).toHaveLength(8);
    for (const call of withBody) expect(call.headers.get('content-type'), call.url).toBe('application/json');
  });
});

describe('the recipient-token answer header', () => {
  test('is saved to the cookie when the shopper has none', async () => {
    const { jar, writes } = memoryJar();
    const { fetchFn } = scriptedFetch([json(200, {}, { 'recipient-token': 'new-token' })]);
    await clientOf({ baseUrl: '/api/', cookies: jar, fetch: fetchFn }).getCart('acme');
    expect(writes).toEqual([{ name: 'recipient-token', value: 'new-token', path: '/', maxAge: 604800 }]);
  });

  test('does not replace an existing one', async () => {
    const { jar, writes } = memoryJar({ 'recipient-token': 'old' });
    const { fetchFn } = scriptedFetch([json(200, {}, { 'recipient-token': 'new-token' })]);
    await clientOf({ baseUrl: '/api/', cookies: jar, fetch: fetchFn }).getCart('acme');
    expect(writes).toEqual([]);
  });

  test('refused with 401 (a token the API did not issue), it is dropped and the call is sent once more without it', async () => {
    const { jar, values, writes } = memoryJar({ 'recipient-token': 'forged' });
    const refused = json(401, { message: 'Your cart session is not valid. Please reload the page.' });
    const { fetchFn, calls } = scriptedFetch([refused, json(201, { cartItems: [1] }, { 'recipient-token': 'issued' })]);
    const api = clientOf({ baseUrl: '/api/', cookies: jar, fetch: fetchFn });
    await expect(
      api.addCartLine('acme', { cart_line_item: { product_variant_id: '2', quantity: 1 } }),
    ).resolves.toEqual({ cartItems: [1] });
    expect(calls.map((c) => [c.method, c.headers.get('recipient-token')])).toEqual([
      ['POST', 'forged'],
      ['POST', null],
    ]);
    expect(calls[1]!.body).toBe(calls[0]!.body);
    expect(writes).toEqual([
      { name: 'recipient-token', value: null, path: '/', maxAge: 0 },
      { name: 'recipient-token', value: 'issued', path: '/', maxAge: 604800 },
    ]);
    expect(values['recipient-token']).toBe('issued');
  });

  test('a second 401 is not retried again, and a 401 without a token is not retried at all', async () => {
    const { jar } = memoryJar({ 'recipient-token': 'forged' });
    const refused = () => json(401, { message: 'Your cart session is not valid. Please reload the page.' });
    const { fetchFn, calls } = scriptedFetch([refused(), refused(), refused()]);
    const api = clientOf({ baseUrl: '/api/', cookies: jar, fetch: fetchFn });
    await expect(api.getCart('acme')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(2);
    await expect(api.getCart('acme')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(3);
  });
});

describe('retries and errors', () => {
  test('a GET answered 503 is tried once more and then succeeds', async () => {
    const { fetchFn, calls } = scriptedFetch([json(503, { message: 'busy' }), json(200, store)]);
    await expect(
      clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn }).getStore('acme'),
    ).resolves.toEqual(store);
    expect(calls).toHaveLength(2);
  });

  test('a GET is retried only once', async () => {
    const { fetchFn, calls } = scriptedFetch([
      json(429, { message: 'slow down' }),
      json(429, { message: 'slow down' }),
    ]);
    const error = await clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn })
      .getCart('acme')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, body: { message: 'slow down' } });
    expect(calls).toHaveLength(2);
  });

  test('a POST answered 503 is not retried', async () => {
    const { fetchFn, calls } = scriptedFetch([json(503, { message: 'busy' })]);
    await expect(
      clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn }).checkout('acme'),
    ).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  test('a 404 is not retried and carries the error body', async () => {
    const { fetchFn, calls } = scriptedFetch([json(404, { message: 'Record not found' })]);
    const error = await clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn })
      .getStore('nope')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, body: { message: 'Record not found' } });
    expect(calls).toHaveLength(1);
  });

  test('a 422 keeps its errors map', async () => {
    const body = { message: 'Validation failed', errors: { email: ['Please enter a valid email address.'] } };
    const { fetchFn } = scriptedFetch([json(422, body)]);
    const error = await clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn })
      .verifyAllowedUser('vip', { email: 'x', browser_token: 'b'.repeat(16) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, body });
  });

  test('a non-JSON error answer keeps its status without a body', async () => {
    const { fetchFn } = scriptedFetch([
      new Response('<h1>Bad gateway</h1>', { status: 502 }),
      new Response('<h1>Bad gateway</h1>', { status: 502 }),
    ]);
    const error = await clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn })
      .getStore('acme')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, body: null });
  });

  test('no answer at all is a NetworkError with status 0', async () => {
    const { fetchFn } = scriptedFetch([new TypeError('fetch failed')]);
    const error = await clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn })
      .getStore('acme')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 0 });
  });
});

test('every call revalidates with the API: a price changed since the last view is never read from the browser cache', async () => {
  const { fetchFn, calls } = scriptedFetch([json(200, { data: [] })]);
  const api = clientOf({ baseUrl: '/api/', cookies: memoryJar().jar, fetch: fetchFn });
  await api.listProductVariants('acme', '1');
  expect(calls[0]?.cache).toBe('no-cache');
});
