import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decimalToCents } from '../../src/lib/money.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

type Entry = { id: string; type: 'product' | 'bundle'; attributes: { name: string; price: string } };
const list = async (query: string) => {
  const res = await api.call('GET', `/store_front/acme/listings?${query}`);
  expect(res.status).toBe(200);
  return res.body as { data: Entry[]; meta: { total: number } };
};

describe('products and bundles listed together', () => {
  test('sorted by price, bundles sit among products by their own price', async () => {
    const { data, meta } = await list('sort=-price&per_page=100');
    const prices = data.map((e) => decimalToCents(e.attributes.price));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const kinds = data.map((e) => e.type);
    expect(kinds).toContain('bundle');
    // Not all bundles first: at least one product is dearer than some bundle.
    expect(kinds.indexOf('product')).toBeLessThan(kinds.lastIndexOf('bundle'));
    const products = (await api.call('GET', '/store_front/acme/products?per_page=100')).body.meta.total as number;
    const bundles = (await api.call('GET', '/store_front/acme/bundles?per_page=100')).body.meta.total as number;
    expect(meta.total).toBe(products + bundles);
  });

  test('sorted by name, one alphabet across both', async () => {
    const { data } = await list('sort=name&per_page=100');
    const names = data.map((e) => e.attributes.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  test('pages cover every entry once', async () => {
    const seen = new Set<string>();
    const { meta } = await list('sort=price&per_page=7');
    for (let page = 1; page <= Math.ceil(meta.total / 7); page++) {
      for (const e of (await list(`sort=price&per_page=7&page=${page}`)).data) seen.add(`${e.type}:${e.id}`);
    }
    expect(seen.size).toBe(meta.total);
  });

  test('a search matches products and bundles alike', async () => {
    const { data } = await list('q=coffee&per_page=100');
    expect(new Set(data.map((e) => e.type))).toEqual(new Set(['product', 'bundle']));
    for (const e of data) expect(e.attributes.name.toLowerCase()).toContain('coffee');
  });

  test("a restricted store's listing needs access", async () => {
    expect((await api.call('GET', '/store_front/vip/listings')).status).toBe(422);
  });
});
