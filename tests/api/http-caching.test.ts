import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleId, newToken, productId, startTestApp, variantId, type TestApp } from './support/test-app.ts';

const PUBLIC = 'public, max-age=30, stale-while-revalidate=300';
const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

async function catalogPaths(): Promise<string[]> {
  const product = await productId(api.db, 'classic-tee');
  const bundle = await bundleId(api.db, 'coffee-kit');
  return [
    '/store_front/acme',
    '/store_front/acme/products',
    `/store_front/acme/products/${product}`,
    `/store_front/acme/products/${product}/product_variants`,
    `/store_front/acme/product_variants?product_ids=${product}`,
    '/store_front/acme/bundles',
    `/store_front/acme/bundles/${bundle}`,
    `/store_front/acme/bundles/${bundle}/bundle_items`,
    '/store_front/acme/collections',
    '/store_front/acme/collections/home',
    '/store_front/acme/collections/home/listings?sort=price',
  ];
}

describe('HTTP caching of catalog answers', () => {
  test('every catalog answer of a public store may be cached 30 s and carries a weak ETag', async () => {
    for (const path of await catalogPaths()) {
      const res = await api.call('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe(PUBLIC);
      expect(res.headers.get('etag'), path).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    }
  });

  test('a request naming the current ETag is answered 304 with no body', async () => {
    for (const path of await catalogPaths()) {
      const first = await api.call('GET', path);
      const etag = first.headers.get('etag')!;
      const again = await api.call('GET', path, { headers: { 'if-none-match': `"other", ${etag}` } });
      expect(again.status, path).toBe(304);
      expect(again.text, path).toBe('');
      expect(again.headers.get('etag'), path).toBe(etag);
      expect(again.headers.get('cache-control'), path).toBe(PUBLIC);
    }
  });

  test('a cross-origin revalidation keeps its CORS headers on the 304', async () => {
    const path = '/store_front/acme/products';
    const origin = { origin: 'https://shop.example' };
    const first = await api.call('GET', path, { headers: origin });
    const again = await api.call('GET', path, { headers: { ...origin, 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('access-control-allow-origin')).toBe(first.headers.get('access-control-allow-origin'));
    expect(again.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(again.headers.get('access-control-expose-headers')).toBe(first.headers.get('access-control-expose-headers'));
  });

  test('every answer, a 304 too, carries the security headers', async () => {
    const first = await api.call('GET', '/store_front/acme');
    const again = await api.call('GET', '/store_front/acme', {
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    for (const res of [first, again, await api.call('GET', '/store_front/acme/cart')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  test('a stale ETag gets the full answer', async () => {
    const res = await api.call('GET', '/store_front/acme/products', { headers: { 'if-none-match': 'W/"stale"' } });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  test('the ETag changes when the catalog answer changes', async () => {
    const path = '/store_front/acme';
    const before = (await api.call('GET', path)).headers.get('etag');
    await api.db
      .updateTable('stores')
      .set({ description: 'Fresh words for the cache test.' })
      .where('slug', '=', 'acme')
      .execute();
    // Store rows are reused for STORE_CACHE_MS (1 s): an operator's change is seen after that.
    api.clock.offsetMs += 1000;
    const after = await api.call('GET', path, { headers: { 'if-none-match': before! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
  });

  test('a restricted store answers its catalog private, no-store, without an ETag', async () => {
    const res = await api.call('GET', '/store_front/vip/products', {
      headers: { 'allowed-recipient-token': VIP_UUID },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('etag')).toBeNull();
    const info = await api.call('GET', '/store_front/vip', { headers: { 'allowed-recipient-token': VIP_UUID } });
    expect(info.headers.get('cache-control')).toBe('private, no-store');
  });

  test('refusals, carts and errors stay no-store', async () => {
    expect((await api.call('GET', '/store_front/vip/products')).headers.get('cache-control')).toBe('no-store');
    expect((await api.call('GET', '/store_front/acme/products/999999')).headers.get('cache-control')).toBe('no-store');
    const token = newToken();
    const cart = await api.call('GET', '/store_front/acme/cart', { token });
    expect(cart.headers.get('cache-control')).toBe('no-store');
    expect(cart.headers.get('etag')).toBeNull();
    const added = await api.call('POST', '/store_front/acme/cart/cart_line_items', {
      token,
      body: { cart_line_item: { product_variant_id: await variantId(api.db, 'TEE-M-RED'), quantity: 1 } },
    });
    expect(added.status).toBe(201);
    expect(added.headers.get('cache-control')).toBe('no-store');
  });
});
