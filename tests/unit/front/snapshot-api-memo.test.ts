import { describe, expect, test } from 'vitest';
import { SnapshotApiMemo } from '../../../src/front/snapshot-api-memo.ts';

const BASE = 'http://127.0.0.1:4321';

/** A fake API that counts calls per path and answers like the real one (single answer = list item). */
function fakeApi(options: { singleDiffers?: boolean } = {}) {
  const calls: string[] = [];
  const products = [{ id: '1', type: 'product', attributes: { name: 'Tee' } }, { id: '2', type: 'product', attributes: { name: 'Mug' } }];
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    calls.push(url.pathname + url.search);
    if (url.pathname === '/api/store_front/acme/products') return Response.json({ data: products, meta: { total: 2, page: 1, perPage: 500 } });
    const single = /\/products\/(\d+)$/.exec(url.pathname);
    if (single) {
      const item = products.find((p) => p.id === single[1]);
      if (!item) return Response.json({ message: 'Record not found' }, { status: 404 });
      return Response.json({ data: options.singleDiffers ? { ...item, extra: true } : item });
    }
    if (url.pathname === '/api/store_front/acme/cart') return Response.json({ cartItems: [] });
    return Response.json({ data: { id: '1', type: 'store' } });
  };
  return { calls, fetch };
}

const get = (path: string, headers: Record<string, string> = {}) => new Request(BASE + path, { headers });

describe('SnapshotApiMemo', () => {
  test('a catalog read is answered once per snapshot and again after it ends', async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    await fetch(get('/api/store_front/acme'));
    const second = await fetch(get('/api/store_front/acme'));
    expect(await second.json()).toEqual({ data: { id: '1', type: 'store' } });
    expect(api.calls).toEqual(['/api/store_front/acme']);
    memo.end();
    await fetch(get('/api/store_front/acme'));
    expect(api.calls).toHaveLength(2);
  });

  test('carts, shopper tokens and cookies always reach the API', async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    for (let i = 0; i < 2; i++) {
      await fetch(get('/api/store_front/acme/cart'));
      await fetch(get('/api/store_front/acme', { 'allowed-recipient-token': 'x' }));
      await fetch(get('/api/store_front/acme', { cookie: 'a=b' }));
    }
    expect(api.calls).toHaveLength(6);
  });

  test("a list page answers its items' single reads after one check against the API", async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    await fetch(get('/api/store_front/acme/products?page=1&per_page=500'));
    const mug = await fetch(get('/api/store_front/acme/products/2'));
    expect(await mug.json()).toEqual({ data: { id: '2', type: 'product', attributes: { name: 'Mug' } } });
    // The list, and the first item once to check that list items and single answers agree.
    expect(api.calls).toEqual(['/api/store_front/acme/products?page=1&per_page=500', '/api/store_front/acme/products/1']);
  });

  test('when single answers differ from list items, nothing is seeded', async () => {
    const api = fakeApi({ singleDiffers: true });
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    await fetch(get('/api/store_front/acme/products?page=1&per_page=500'));
    const mug = await fetch(get('/api/store_front/acme/products/2'));
    expect(await mug.json()).toMatchObject({ data: { extra: true } });
    expect(api.calls).toContain('/api/store_front/acme/products/2');
  });

  test('error answers are not remembered', async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    expect((await fetch(get('/api/store_front/acme/products/9'))).status).toBe(404);
    expect((await fetch(get('/api/store_front/acme/products/9'))).status).toBe(404);
    expect(api.calls).toHaveLength(2);
  });
});
