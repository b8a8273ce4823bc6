/**
 * Filters and facets of the shop's list, a collection's and search (docs/decisions/192-listing-facets.md),
 * checked against counts worked out here from the catalog's own products, variants and bundle items.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decimalToCents } from '../../src/lib/money.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';

let api: TestApp;
type Variant = { options: Record<string, string>; priceCents: number; stock: number };
type Entry = { key: string; name: string; priceCents: number; inStock: boolean; options: Record<string, Set<string>> };
let catalog: Entry[];

const get = async (path: string, status = 200) => {
  const res = await api.call('GET', path);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
};

type Facets = {
  in_stock: number;
  price: { min: string; max: string } | null;
  options: { name: string; values: { value: string; count: number }[] }[];
};
type Page = {
  data: { id: string; type: string; attributes: { name: string } }[];
  meta: { total: number; facets: Facets };
};
const listings = (query: string) => get(`/store_front/acme/listings?per_page=500&${query}`) as Promise<Page>;

function optionsOf(variants: Variant[]) {
  const options: Record<string, Set<string>> = {};
  for (const v of variants)
    for (const [name, value] of Object.entries(v.options)) (options[name] ??= new Set()).add(value);
  return options;
}

beforeAll(async () => {
  api = await startTestApp();
  const variantOf = new Map<string, Variant>();
  const products = (await get('/store_front/acme/products?per_page=500')).data as {
    id: string;
    attributes: { name: string };
  }[];
  catalog = [];
  for (const p of products) {
    const rows = (await get(`/store_front/acme/products/${p.id}/product_variants`)).data as {
      id: string;
      attributes: { options: Record<string, string>; price: string; stock: number };
    }[];
    const variants = rows.map((r) => {
      const v = {
        options: r.attributes.options,
        priceCents: decimalToCents(r.attributes.price),
        stock: r.attributes.stock,
      };
      variantOf.set(r.id, v);
      return v;
    });
    catalog.push({
      key: `product:${p.id}`,
      name: p.attributes.name,
      priceCents: Math.min(...variants.map((v) => v.priceCents)),
      inStock: variants.some((v) => v.stock > 0),
      options: optionsOf(variants),
    });
  }
  const bundles = (await get('/store_front/acme/bundles?per_page=500')).data as {
    id: string;
    attributes: { name: string };
  }[];
  for (const b of bundles) {
    const items = (await get(`/store_front/acme/bundles/${b.id}/bundle_items`)).data as {
      attributes: { product_variant_id: string; quantity: number };
    }[];
    const variants = items.map((i) => ({
      ...variantOf.get(i.attributes.product_variant_id)!,
      quantity: i.attributes.quantity,
    }));
    catalog.push({
      key: `bundle:${b.id}`,
      name: b.attributes.name,
      priceCents: variants.reduce((sum, v) => sum + v.priceCents * v.quantity, 0),
      inStock: variants.length > 0 && variants.every((v) => v.stock >= v.quantity),
      options: optionsOf(variants),
    });
  }
});
afterAll(async () => api?.close());

const keys = (page: Page) => page.data.map((e) => `${e.type}:${e.id}`).sort();
const hasAny = (entry: Entry, name: string, values: string[]) => values.some((v) => entry.options[name]?.has(v));

describe('filters on the shop’s list', () => {
  test('the demo catalog has sizes and colours to filter by', () => {
    expect(catalog.some((e) => e.options.Size?.has('M'))).toBe(true);
    expect(catalog.some((e) => e.key.startsWith('bundle') && Object.keys(e.options).length > 0)).toBe(true);
  });

  test('Size M: the entries with an M variant, bundles by their items; counts of every size ignore the size filter', async () => {
    const page = await listings('option=Size:M');
    const expected = catalog.filter((e) => hasAny(e, 'Size', ['M']));
    expect(keys(page)).toEqual(expected.map((e) => e.key).sort());
    expect(page.meta.total).toBe(expected.length);
    const sizes = page.meta.facets.options.find((o) => o.name === 'Size')!;
    for (const { value, count } of sizes.values) {
      expect(count, value).toBe(catalog.filter((e) => hasAny(e, 'Size', [value])).length);
    }
    // Colours are counted among the size-M entries.
    const colors = page.meta.facets.options.find((o) => o.name === 'Color');
    for (const { value, count } of colors?.values ?? []) {
      expect(count, value).toBe(expected.filter((e) => hasAny(e, 'Color', [value])).length);
    }
    expect(page.meta.facets.in_stock).toBe(expected.filter((e) => e.inStock).length);
  });

  test('two values of one option are OR’ed, a price range and in stock AND’ed', async () => {
    const page = await listings('option=Size:M&option=Size:L&price_min=20&price_max=80.50&in_stock=true');
    const expected = catalog.filter(
      (e) => hasAny(e, 'Size', ['M', 'L']) && e.priceCents >= 2000 && e.priceCents <= 8050 && e.inStock,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(keys(page)).toEqual(expected.map((e) => e.key).sort());
    // The price range ignores the price filter: the bounds of what the other filters leave.
    const others = catalog.filter((e) => hasAny(e, 'Size', ['M', 'L']) && e.inStock).map((e) => e.priceCents);
    expect(page.meta.facets.price).toEqual({
      min: (Math.min(...others) / 100).toFixed(2),
      max: (Math.max(...others) / 100).toFixed(2),
    });
  });

  test('values come numbers first, then in the order products list them; a value left with none shows 0', async () => {
    const sizes = (await listings('')).meta.facets.options.find((o) => o.name === 'Size')!.values.map((v) => v.value);
    const numbers = sizes.filter((v) => /^\d+$/.test(v));
    expect(numbers.length).toBeGreaterThan(1);
    expect(sizes.slice(0, numbers.length)).toEqual(numbers);
    expect(numbers).toEqual([...numbers].sort((a, b) => Number(a) - Number(b)));
    const letters = sizes.filter((v) => ['S', 'M', 'L', 'XL'].includes(v));
    expect(letters).toEqual(['S', 'M', 'L', 'XL'].filter((v) => letters.includes(v)));

    const none = await listings('price_min=999999');
    expect(none.meta.total).toBe(0);
    const left = none.meta.facets.options.find((o) => o.name === 'Size')!.values;
    expect(left.map((v) => v.value)).toEqual(sizes);
    expect(left.every((v) => v.count === 0)).toBe(true);
  });

  test('different options are AND’ed', async () => {
    const color = catalog.flatMap((e) => [...(e.options.Color ?? [])])[0]!;
    const page = await listings(`option=Size:M&option=${encodeURIComponent(`Color:${color}`)}`);
    const expected = catalog.filter((e) => hasAny(e, 'Size', ['M']) && hasAny(e, 'Color', [color]));
    expect(keys(page)).toEqual(expected.map((e) => e.key).sort());
  });

  test('no match: an empty page, facets still counted', async () => {
    const page = await listings('option=Size:NoSuchSize');
    expect(page.data).toEqual([]);
    expect(page.meta.total).toBe(0);
    expect(page.meta.facets.options.find((o) => o.name === 'Size')!.values.length).toBeGreaterThan(1);
  });

  test('sorted by price high to low with a filter, products and bundles together; newest and featured', async () => {
    const page = await listings('sort=-price&in_stock=true');
    const byKey = new Map(catalog.map((e) => [e.key, e]));
    const prices = page.data.map((e) => byKey.get(`${e.type}:${e.id}`)!.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(new Set(page.data.map((e) => e.type))).toEqual(new Set(['product', 'bundle']));
    const newest = await listings('sort=newest');
    expect(newest.meta.total).toBe(catalog.length);
    const featured = (await listings('sort=featured')).data.map(
      (e) => (e.attributes as { featured?: boolean }).featured,
    );
    expect(featured).toEqual([...featured].sort((a, b) => Number(b) - Number(a)));
  });

  test('bad filters: 422 with the errors by field', async () => {
    const cases: [string, string][] = [
      ['price_min=abc', 'price_min'],
      ['price_max=-1', 'price_max'],
      ['price_min=50&price_max=10', 'price_min'],
      ['in_stock=yes', 'in_stock'],
      ['option=Size', 'option'],
      ['sort=cheapest', 'sort'],
    ];
    for (const [query, field] of cases) {
      const body = (await get(`/store_front/acme/listings?${query}`, 422)) as { errors: Record<string, string[]> };
      expect(
        Object.keys(body.errors).map((key) => key.split('.')[0]),
        query,
      ).toContain(field);
    }
    expect(
      ((await get('/store_front/acme/listings?price_min=50&price_max=10', 422)) as { errors: Record<string, string[]> })
        .errors.price_min,
    ).toEqual(['Minimum price must not be above the maximum price.']);
  });
});

describe('filters on a collection and on search', () => {
  test('a collection’s list narrowed by a filter, its facets counted among its members', async () => {
    const all = (await get('/store_front/acme/collections/apparel/listings?per_page=500')) as Page;
    const members = new Set(keys(all));
    const page = (await get('/store_front/acme/collections/apparel/listings?per_page=500&option=Size:M')) as Page;
    const expected = catalog.filter((e) => members.has(e.key) && hasAny(e, 'Size', ['M']));
    expect(keys(page)).toEqual(expected.map((e) => e.key).sort());
    const m = page.meta.facets.options.find((o) => o.name === 'Size')!.values.find((v) => v.value === 'M')!;
    expect(m.count).toBe(expected.length);
  });

  test('search results filtered by price, with facets', async () => {
    const found = (await get('/store_front/acme/search?q=coffee&per_page=500')) as Page;
    expect(found.meta.total).toBeGreaterThan(1);
    const byKey = new Map(catalog.map((e) => [e.key, e]));
    const prices = found.data.map((e) => byKey.get(`${e.type}:${e.id}`)!.priceCents).sort((a, b) => a - b);
    const cheap = (await get(
      `/store_front/acme/search?q=coffee&per_page=500&price_max=${(prices[0]! / 100).toFixed(2)}`,
    )) as Page;
    expect(cheap.meta.total).toBe(prices.filter((p) => p === prices[0]).length);
    expect(cheap.meta.facets.price).toEqual({
      min: (prices[0]! / 100).toFixed(2),
      max: (prices.at(-1)! / 100).toFixed(2),
    });
    await get('/store_front/acme/search?q=coffee&price_min=9&price_max=1', 422);
  });

  test('a restricted store’s filtered list only with access', async () => {
    expect((await api.call('GET', '/store_front/vip/listings?option=Size:M')).status).toBe(422);
    const res = await api.call('GET', '/store_front/vip/listings?in_stock=true', {
      headers: { 'allowed-recipient-token': VIP_UUID },
    });
    expect(res.status).toBe(200);
    expect(res.body.meta.facets).toBeDefined();
  });
});
