import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ApiMicrocache } from '../../../src/front/api-microcache.ts';

const PUBLIC = 'public, max-age=30, stale-while-revalidate=300';

/** A stand-in API: every answer counts, and says how many calls reached it. */
let calls = 0;
let answer: { status?: number; headers?: Record<string, string> } = {};
const api = (request: Request) => {
  calls += 1;
  const url = new URL(request.url);
  return Response.json(
    { path: url.pathname + url.search, call: calls },
    { status: answer.status ?? 200, headers: { 'cache-control': PUBLIC, etag: 'W/"v1"', ...answer.headers } },
  );
};

let now = 1_000_000;
let cache: ApiMicrocache;
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (cache.serve(req, res)) return;
    void getRequestListener(cache.wrap(api))(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function fresh(ttlMs = 1000, maxEntries?: number) {
  calls = 0;
  answer = {};
  cache = new ApiMicrocache({ ttlMs, now: () => now, ...(maxEntries ? { maxEntries } : {}) });
}
afterEach(() => fresh());
fresh();

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(base + path, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as { call: number }) : null };
};

describe('ApiMicrocache', () => {
  test('a public catalog answer is served from memory until its TTL ends, with an Age', async () => {
    const first = await get('/api/store_front/acme');
    const second = await get('/api/store_front/acme');
    expect(first.body?.call).toBe(1);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('etag')).toBe('W/"v1"');
    expect(second.headers.get('cache-control')).toBe(PUBLIC);
    expect(second.headers.get('content-type')).toBe('application/json');
    expect(second.headers.get('age')).toBe('0');
    now += 999;
    expect((await get('/api/store_front/acme')).body?.call).toBe(1);
    now += 1;
    expect((await get('/api/store_front/acme')).body?.call).toBe(2);
    expect(calls).toBe(2);
  });

  test('products, variants and bundles are kept; each URL (query included) on its own', async () => {
    for (const path of [
      '/api/store_front/acme/products?page=2',
      '/api/store_front/acme/products/7/product_variants',
      '/api/store_front/acme/bundles/3',
    ]) {
      await get(path);
      expect((await get(path)).body).toMatchObject({ path, call: calls });
    }
    expect(calls).toBe(3);
    expect((await get('/api/store_front/acme/products?page=3')).body?.call).toBe(4);
  });

  test('If-None-Match with the kept ETag answers 304 without a body', async () => {
    await get('/api/store_front/acme');
    const revalidated = await get('/api/store_front/acme', { 'if-none-match': 'W/"v1"' });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBeNull();
    expect(revalidated.headers.get('etag')).toBe('W/"v1"');
    expect(calls).toBe(1);
  });

  test.each([
    ['private', { 'cache-control': 'private, no-store' }],
    ['no-store', { 'cache-control': 'no-store' }],
    ['without max-age', { 'cache-control': 'public' }],
    ['with a cookie', { 'set-cookie': 'a=b' }],
    ['varying on a token', { vary: 'recipient-token' }],
  ])('an answer marked %s is never kept', async (_name, headers) => {
    answer = { headers };
    await get('/api/store_front/acme');
    expect((await get('/api/store_front/acme')).body?.call).toBe(2);
  });

  test('errors are not kept', async () => {
    answer = { status: 404 };
    await get('/api/store_front/nobody');
    expect((await get('/api/store_front/nobody')).status).toBe(404);
    expect(calls).toBe(2);
  });

  test.each([
    ['a cart', '/api/store_front/acme/cart', {}],
    ['an order', '/api/cart/0b6c5a9e-6a4e-4a43-9a57-7d1c9e1b2f10/order', {}],
    ['a restricted store’s access token', '/api/store_front/vip', { 'allowed-recipient-token': 'x' }],
    ['a cart token', '/api/store_front/acme/products', { 'recipient-token': 'x' }],
    ['a cookie', '/api/store_front/acme', { cookie: 'a=b' }],
  ])('a request for %s always reaches the API', async (_name, path, headers) => {
    await get(path, headers);
    await get(path, headers);
    expect(calls).toBe(2);
  });

  test('answers varying on Origin are kept per origin', async () => {
    answer = { headers: { vary: 'Origin' } };
    const a = await get('/api/store_front/acme', { origin: 'https://a.test' });
    const b = await get('/api/store_front/acme', { origin: 'https://b.test' });
    expect(b.body?.call).toBe(a.body!.call + 1);
    expect((await get('/api/store_front/acme', { origin: 'https://a.test' })).body).toEqual(a.body);
    expect(calls).toBe(2);
  });

  test('a max-age shorter than the TTL wins', async () => {
    fresh(60_000);
    answer = { headers: { 'cache-control': 'public, max-age=2' } };
    await get('/api/store_front/acme');
    now += 1999;
    expect((await get('/api/store_front/acme')).body?.call).toBe(1);
    now += 1;
    expect((await get('/api/store_front/acme')).body?.call).toBe(2);
  });

  test('clear() forgets everything; a TTL of 0 keeps nothing; the oldest entry goes when full', async () => {
    await get('/api/store_front/acme');
    cache.clear();
    expect((await get('/api/store_front/acme')).body?.call).toBe(2);

    fresh(0);
    await get('/api/store_front/acme');
    await get('/api/store_front/acme');
    expect(calls).toBe(2);

    fresh(1000, 2);
    await get('/api/store_front/a');
    await get('/api/store_front/b');
    await get('/api/store_front/c');
    expect(cache.size).toBe(2);
    expect((await get('/api/store_front/c')).body?.call).toBe(3);
    expect((await get('/api/store_front/a')).body?.call).toBe(4);
  });
});
