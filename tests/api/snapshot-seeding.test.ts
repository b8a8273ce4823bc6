import { afterAll, beforeAll, expect, test } from 'vitest';
import { SnapshotApiMemo } from '../../src/front/snapshot-api-memo.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

/** A begun memo in front of the real API, with the calls that reached the API and a GET through the memo. */
function memoOverTheApi() {
  const calls: string[] = [];
  const memo = new SnapshotApiMemo();
  const memoFetch = memo.wrap(async (request) => {
    const url = new URL(request.url);
    calls.push(url.pathname.replace(/^\/api/, '') + url.search);
    return fetch(request);
  });
  const get = (path: string) =>
    memoFetch(new Request(`${api.baseUrl}${path}`, { headers: { accept: 'application/json' } }));
  memo.begin();
  return { memo, calls, get };
}

test("over the real API, a product list page answers its ids and every product's own, variants and collections reads byte for byte, with one call each", async () => {
  const { memo, calls, get } = memoOverTheApi();

  const list = await get('/store_front/acme/products?page=1&per_page=500&sort=name');
  const ids: string[] = (await list.json()).data.map((p: { id: string }) => p.id);
  expect(ids.length).toBeGreaterThanOrEqual(24);
  expect(calls).toEqual([
    '/store_front/acme/products?page=1&per_page=500&sort=name',
    '/store_front/acme/products?page=1&per_page=500&sort=name&fields=id',
    `/store_front/acme/products/${ids[0]}`,
    `/store_front/acme/product_variants?product_ids=${ids.join(',')}`,
    `/store_front/acme/products/${ids[0]}/product_variants`,
    `/store_front/acme/product_collections?product_ids=${ids.join(',')}`,
    `/store_front/acme/products/${ids[0]}/collections`,
  ]);

  calls.length = 0;
  for (const id of ids) {
    for (const path of [
      '/store_front/acme/products?page=1&per_page=500&sort=name&fields=id',
      `/store_front/acme/products/${id}`,
      `/store_front/acme/products/${id}/product_variants`,
      `/store_front/acme/products/${id}/collections`,
    ]) {
      const seeded = await get(path);
      const real = await api.call('GET', path);
      expect(await seeded.text(), path).toBe(real.text);
      // A kept answer carries its type alone: renders read nothing else of it.
      expect([...seeded.headers], path).toEqual([['content-type', real.headers.get('content-type')]]);
    }
  }
  expect(calls).toEqual([]);
  memo.end();
});

test("over the real API, a bundle list page answers its ids and every bundle's own and items reads byte for byte, with one call each", async () => {
  const { memo, calls, get } = memoOverTheApi();

  const list = await get('/store_front/acme/bundles?page=1&per_page=500&sort=name');
  const ids: string[] = (await list.json()).data.map((b: { id: string }) => b.id);
  expect(ids.length).toBe(3);
  expect(calls).toEqual([
    '/store_front/acme/bundles?page=1&per_page=500&sort=name',
    '/store_front/acme/bundles?page=1&per_page=500&sort=name&fields=id',
    `/store_front/acme/bundles/${ids[0]}`,
    `/store_front/acme/bundle_items?bundle_ids=${ids.join(',')}`,
    `/store_front/acme/bundles/${ids[0]}/bundle_items`,
  ]);

  calls.length = 0;
  for (const id of ids) {
    for (const path of [
      '/store_front/acme/bundles?page=1&per_page=500&sort=name&fields=id',
      `/store_front/acme/bundles/${id}`,
      `/store_front/acme/bundles/${id}/bundle_items`,
    ]) {
      const seeded = await get(path);
      const real = await api.call('GET', path);
      expect(await seeded.text(), path).toBe(real.text);
      expect([...seeded.headers], path).toEqual([['content-type', real.headers.get('content-type')]]);
    }
  }
  expect(calls).toEqual([]);
  memo.end();
});
