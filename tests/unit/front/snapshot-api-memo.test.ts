import { describe, expect, test } from 'vitest';
import { SnapshotApiMemo } from '../../../src/front/snapshot-api-memo.ts';

const BASE = 'http://127.0.0.1:4321';

/**
 * A fake API that counts calls per path and answers like the real one: a single answer is the list
 * item, a product's variants are its part of the bulk variants answer, catalog answers carry an ETag.
 */
function fakeApi(options: { singleDiffers?: boolean; bulkVariants?: 'same' | 'differs' | 'missing' } = {}) {
  const calls: string[] = [];
  const products = [
    { id: '1', type: 'product', attributes: { name: 'Tee' } },
    { id: '2', type: 'product', attributes: { name: 'Mug' } },
  ];
  const variants = [
    { id: '11', type: 'product_variant', attributes: { product_id: '1', name: 'S' } },
    { id: '12', type: 'product_variant', attributes: { product_id: '1', name: 'M' } },
    { id: '21', type: 'product_variant', attributes: { product_id: '2', name: 'Default' } },
  ];
  const catalog = (body: unknown) => {
    const text = JSON.stringify(body);
    return new Response(text, {
      headers: {
        'content-type': 'application/json',
        'cache-control': 'public, max-age=30',
        etag: `W/"${text.length}-${text.charCodeAt(text.length - 3)}"`,
      },
    });
  };
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    calls.push(url.pathname + url.search);
    if (url.pathname === '/api/store_front/acme/products') {
      const data = url.searchParams.get('fields') === 'id' ? products.map(({ id, type }) => ({ id, type })) : products;
      return catalog({ data, meta: { total: 2, page: 1, perPage: 500 } });
    }
    if (url.pathname === '/api/store_front/acme/product_variants') {
      const bulk = options.bulkVariants ?? 'same';
      if (bulk === 'missing') return Response.json({ message: 'Record not found' }, { status: 404 });
      const asked = url.searchParams.get('product_ids')!.split(',');
      const data = variants.filter((v) => asked.includes(v.attributes.product_id));
      return catalog({ data: bulk === 'differs' ? data.map((v) => ({ ...v, extra: true })) : data });
    }
    const ofProduct = /\/products\/(\d+)\/product_variants$/.exec(url.pathname);
    if (ofProduct) return catalog({ data: variants.filter((v) => v.attributes.product_id === ofProduct[1]) });
    const single = /\/products\/(\d+)$/.exec(url.pathname);
    if (single) {
      const item = products.find((p) => p.id === single[1]);
      if (!item) return Response.json({ message: 'Record not found' }, { status: 404 });
      return catalog({ data: options.singleDiffers ? { ...item, extra: true } : item });
    }
    if (url.pathname === '/api/store_front/acme/cart') return Response.json({ cartItems: [] });
    return catalog({ data: { id: '1', type: 'store' } });
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

  test("a product's collections and a collection's list are read once per snapshot, whichever page asks", async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    const paths = [
      '/api/store_front/acme/products/1/collections',
      '/api/store_front/acme/collections/home/listings?per_page=5',
    ];
    for (const path of [...paths, ...paths]) await fetch(get(path));
    expect(api.calls).toEqual(paths);
    memo.end();
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
    // The list, and the first item once to check that list items and single answers agree (besides the bulk
    // calls for the products' variants and collections).
    expect(api.calls.filter((call) => !/product_(variants|collections)|fields=id/.test(call))).toEqual([
      '/api/store_front/acme/products?page=1&per_page=500',
      '/api/store_front/acme/products/1',
    ]);
  });

  test("a list page answers the same page's ids (`fields=id`) after one check against the API", async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    await fetch(get('/api/store_front/acme/products?page=1&per_page=500'));
    const checks = api.calls.filter((call) => call.includes('fields=id'));
    expect(checks).toEqual(['/api/store_front/acme/products?page=1&per_page=500&fields=id']);
    const ids = await fetch(get('/api/store_front/acme/products?page=1&per_page=500&fields=id'));
    expect(await ids.json()).toEqual({
      data: [
        { id: '1', type: 'product' },
        { id: '2', type: 'product' },
      ],
      meta: { total: 2, page: 1, perPage: 500 },
    });
    // Kept: answered from the list, not asked again.
    expect(api.calls.filter((call) => call.includes('fields=id'))).toEqual(checks);
    // Not when the build asks for few items (docs/decisions/225-publish-from-catalog-changes.md): nothing is seeded.
    memo.begin({ seedLists: false });
    const before = api.calls.length;
    await fetch(get('/api/store_front/acme/products?page=1&per_page=500'));
    await fetch(get('/api/store_front/acme/products/2'));
    expect(api.calls.slice(before)).toEqual([
      '/api/store_front/acme/products?page=1&per_page=500',
      '/api/store_front/acme/products/2',
    ]);
  });

  test("a product list page answers its products' variant reads from one bulk call, checked once against the API", async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    await fetch(get('/api/store_front/acme/products?page=1&per_page=500'));
    const real = await (await api.fetch(get('/api/store_front/acme/products/2/product_variants'))).text();
    api.calls.length = 0;
    const fromMemo = await fetch(get('/api/store_front/acme/products/2/product_variants'));
    expect(await fromMemo.text()).toBe(real);
    expect((await fetch(get('/api/store_front/acme/products/1/product_variants'))).status).toBe(200);
    expect(api.calls).toEqual([]);
  });

  test('the list page asks for its variants in one call and checks the first product against its own answer', async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    await fetch(get('/api/store_front/acme/products?page=1&per_page=500'));
    expect(api.calls.filter((call) => call.includes('product_variants'))).toEqual([
      '/api/store_front/acme/product_variants?product_ids=1,2',
      '/api/store_front/acme/products/1/product_variants',
    ]);
  });

  test('when bulk variants differ from single answers, or the API has no bulk call, variant reads reach the API', async () => {
    for (const bulkVariants of ['differs', 'missing'] as const) {
      const api = fakeApi({ bulkVariants });
      const memo = new SnapshotApiMemo();
      const fetch = memo.wrap(api.fetch);
      memo.begin();
      await fetch(get('/api/store_front/acme/products?page=1&per_page=500'));
      const mug = await fetch(get('/api/store_front/acme/products/2/product_variants'));
      expect(await mug.json(), bulkVariants).toEqual({
        data: [{ id: '21', type: 'product_variant', attributes: { product_id: '2', name: 'Default' } }],
      });
      expect(api.calls, bulkVariants).toContain('/api/store_front/acme/products/2/product_variants');
      // Checked once per snapshot: a second list page does not ask again.
      await fetch(get('/api/store_front/acme/products?page=1&per_page=500&sort=name'));
      expect(
        api.calls.filter((call) => call.startsWith('/api/store_front/acme/product_variants')),
        bulkVariants,
      ).toHaveLength(1);
    }
  });

  test('kept answers, read or seeded, carry their type alone: no caching headers, no ETag naming another body', async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    memo.begin();
    const list = '/api/store_front/acme/products?page=1&per_page=500';
    await fetch(get(list));
    for (const path of [
      list,
      '/api/store_front/acme/products/2',
      '/api/store_front/acme/products/2/product_variants',
    ]) {
      const kept = await fetch(get(path));
      expect([...kept.headers], path).toEqual([['content-type', 'application/json']]);
    }
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

  test("a kept answer is given before any Request is made, as the page's read; unkept and shopper reads are not", async () => {
    const api = fakeApi();
    const memo = new SnapshotApiMemo();
    const fetch = memo.wrap(api.fetch);
    const inputs = memo.begin();
    const store = `${BASE}/api/store_front/acme`;
    const headers = new Headers({ accept: 'application/json' });
    expect(memo.kept(new URL(store), headers)).toBeUndefined();
    await inputs.during('/acme/shop', () => fetch(get('/api/store_front/acme')));
    const kept = inputs.during('/acme/product/1', () => memo.kept(new URL(store), headers));
    expect(await kept!.json()).toEqual({ data: { id: '1', type: 'store' } });
    expect([...inputs.readsOf('/acme/product/1')]).toEqual(['/api/store_front/acme']);
    expect(memo.kept(new URL(store), new Headers({ cookie: 'a=b' }))).toBeUndefined();
    expect(memo.kept(new URL(`${store}/cart`), headers)).toBeUndefined();
    expect(api.calls).toEqual(['/api/store_front/acme']);
    memo.end();
    expect(memo.kept(new URL(store), headers)).toBeUndefined();
  });
});
