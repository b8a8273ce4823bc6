import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleId, productId, startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

const NOT_FOUND = { message: 'Record not found' };

describe('products', () => {
  test('the demo store lists at least 24 products with prices as two-decimal strings', async () => {
    const res = await api.call('GET', '/store_front/acme/products');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: expect.any(Number), page: 1, perPage: 48 });
    expect(res.body.meta.total).toBeGreaterThanOrEqual(24);
    for (const product of res.body.data) {
      expect(product.type).toBe('product');
      expect(product.attributes.price).toMatch(/^\d+\.\d\d$/);
    }
  });

  test('the demo data has variants, several products with 3+ images, one without an image, and featured products', async () => {
    const { body } = await api.call('GET', '/store_front/acme/products?per_page=500');
    const products = body.data.map((p: any) => p.attributes);
    expect(products.filter((p: any) => p.images.length >= 3).length).toBeGreaterThanOrEqual(3);
    const imageless = products.find((p: any) => p.images.length === 0);
    expect(imageless.default_e_commerce_image_id).toBeNull();
    expect(products.some((p: any) => p.optionNames.includes('Size'))).toBe(true);
    expect(products.some((p: any) => p.featured)).toBe(true);
    expect(products.some((p: any) => p.available === false)).toBe(true);
  });

  test('pages, sorting, search and the featured filter', async () => {
    const page2 = await api.call('GET', '/store_front/acme/products?page=2&per_page=5');
    expect(page2.body.data).toHaveLength(5);
    expect(page2.body.meta).toMatchObject({ page: 2, perPage: 5 });
    const byPrice = await api.call('GET', '/store_front/acme/products?sort=-price&per_page=500');
    const prices = byPrice.body.data.map((p: any) => Number(p.attributes.price));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    const byName = await api.call('GET', '/store_front/acme/products?sort=name&per_page=500');
    const names = byName.body.data.map((p: any) => p.attributes.name);
    expect(names[0] <= names[names.length - 1]).toBe(true);
    const search = await api.call('GET', '/store_front/acme/products?q=hoodie');
    expect(search.body.data.map((p: any) => p.attributes.name)).toEqual(['Trail Hoodie']);
    const wildcard = await api.call('GET', '/store_front/acme/products?q=%25');
    expect(wildcard.body.data).toEqual([]);
    const featured = await api.call('GET', '/store_front/acme/products?featured=true&per_page=500');
    expect(featured.body.data.every((p: any) => p.attributes.featured)).toBe(true);
  });

  test('`fields=id` lists the same items in the same order, each its id and type alone, products and bundles', async () => {
    for (const kind of ['products', 'bundles'])
      for (const query of ['sort=name&per_page=7', 'sort=-price&page=2&per_page=3', 'featured=true', 'q=coffee']) {
        const whole = await api.call('GET', `/store_front/acme/${kind}?${query}`);
        const ids = await api.call('GET', `/store_front/acme/${kind}?${query}&fields=id`);
        expect(ids.status, `${kind} ${query}`).toBe(200);
        expect(ids.body, `${kind} ${query}`).toEqual({
          data: whole.body.data.map(({ id, type }: { id: string; type: string }) => ({ id, type })),
          meta: whole.body.meta,
        });
      }
    const other = await api.call('GET', '/store_front/acme/products?fields=name');
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual({ fields: ['Fields must be id.'] });
  });

  test('bad list parameters answer 422 with an errors map', async () => {
    for (const query of ['page=0', 'page=abc', 'per_page=501', 'per_page=1.5', 'sort=evil', 'featured=maybe']) {
      const res = await api.call('GET', `/store_front/acme/products?${query}`);
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors).length, query).toBeGreaterThan(0);
    }
  });

  test('one product and its variants with options', async () => {
    const id = await productId(api.db, 'classic-tee');
    const product = await api.call('GET', `/store_front/acme/products/${id}`);
    expect(product.status).toBe(200);
    expect(product.body.data.attributes).toMatchObject({
      name: 'Classic Cotton Tee',
      optionNames: ['Size', 'Color'],
      price: '20.00',
    });
    expect(product.body.data.attributes.description).toContain('<strong>');
    const variants = await api.call('GET', `/store_front/acme/products/${id}/product_variants`);
    expect(variants.status).toBe(200);
    expect(variants.body.data.length).toBe(8);
    expect(variants.body.data[0]).toMatchObject({
      type: 'product_variant',
      attributes: { product_id: id, options: { Size: 'S', Color: 'Red' }, available: false },
    });
  });

  test('unknown, malformed and other-store product ids are 404 Record not found', async () => {
    const vipProduct = await productId(api.db, 'vip-reserve-watch');
    for (const path of [
      '/products/999999',
      '/products/abc',
      '/products/-1',
      `/products/${vipProduct}`,
      `/products/${vipProduct}/product_variants`,
      '/products/1e3',
    ]) {
      const res = await api.call('GET', `/store_front/acme${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });
});

describe('collections of many products (extension)', () => {
  test('one call answers each product on sale with its collections exactly as its own collections call does', async () => {
    const ids = [
      await productId(api.db, 'wool-beanie'),
      await productId(api.db, 'classic-tee'),
      await productId(api.db, 'canvas-sneaker'),
    ];
    const singles = await Promise.all(ids.map((id) => api.call('GET', `/store_front/acme/products/${id}/collections`)));
    const bulk = await api.call('GET', `/store_front/acme/product_collections?product_ids=${ids.join(',')},999999`);
    expect(bulk.status).toBe(200);
    const byId = new Map(ids.map((id, i) => [id, singles[i]!]));
    const sorted = [...ids].sort((a, b) => Number(a) - Number(b));
    expect(bulk.body.data.map((entry: any) => entry.product_id)).toEqual(sorted);
    expect(bulk.body.data.some((entry: any) => entry.collections.length > 0)).toBe(true);
    // Byte for byte: what a snapshot cuts out of the bulk answer is what the single call answers.
    for (const entry of bulk.body.data)
      expect(JSON.stringify({ data: entry.collections })).toBe(byId.get(entry.product_id)!.text);
  });
});

describe('variants of many products (extension)', () => {
  const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';

  test("one call answers each product's variants exactly as its own variants call does, in the order asked", async () => {
    const ids = [
      await productId(api.db, 'canvas-sneaker'),
      await productId(api.db, 'classic-tee'),
      await productId(api.db, 'wool-beanie'),
    ];
    const singles = await Promise.all(
      ids.map((id) => api.call('GET', `/store_front/acme/products/${id}/product_variants`)),
    );
    const bulk = await api.call('GET', `/store_front/acme/product_variants?product_ids=${ids.join(',')}`);
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({ data: singles.flatMap((single) => single.body.data) });
    expect(bulk.body.data.length).toBeGreaterThan(ids.length);
    // Byte for byte: what a snapshot cuts out of the bulk answer is what the single call answers.
    const teeVariants = bulk.body.data.filter((v: any) => v.attributes.product_id === ids[1]);
    expect(JSON.stringify({ data: teeVariants })).toBe(singles[1]!.text);
  });

  test("a repeated id counts once; unknown ids and other stores' products have no variants", async () => {
    const tee = await productId(api.db, 'classic-tee');
    const vipProduct = await productId(api.db, 'vip-reserve-watch');
    const own = await api.call('GET', `/store_front/acme/products/${tee}/product_variants`);
    const bulk = await api.call(
      'GET',
      `/store_front/acme/product_variants?product_ids=${tee},999999,${vipProduct},${tee}`,
    );
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual(own.body);
    const none = await api.call('GET', `/store_front/acme/product_variants?product_ids=${vipProduct}`);
    expect(none.body).toEqual({ data: [] });
  });

  test('missing or malformed product ids, or more than 500, answer 422 with an errors map', async () => {
    const tooMany = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    for (const query of [
      '',
      '?product_ids=',
      '?product_ids=abc',
      '?product_ids=1,,2',
      '?product_ids=0',
      '?product_ids=1e3',
      '?product_ids=1,%202',
      `?product_ids=${tooMany}`,
    ]) {
      const res = await api.call('GET', `/store_front/acme/product_variants${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors, query).toEqual({
        product_ids: ['Product ids must be 1 to 500 product ids separated by commas.'],
      });
    }
    const fiveHundred = Array.from({ length: 500 }, (_, i) => i + 1).join(',');
    expect((await api.call('GET', `/store_front/acme/product_variants?product_ids=${fiveHundred}`)).status).toBe(200);
  });

  test('a restricted store needs its access token, an unknown store is 404', async () => {
    const watch = await productId(api.db, 'vip-reserve-watch');
    const refused = await api.call('GET', `/store_front/vip/product_variants?product_ids=${watch}`);
    expect(refused.status).toBe(422);
    // The refusal names the store, so its access page can say whose list it is.
    expect(refused.body).toEqual({
      message: 'The store has restricted access. Please contact Admin.',
      store: { title: 'VIP Reserve' },
    });
    const allowed = await api.call('GET', `/store_front/vip/product_variants?product_ids=${watch}`, {
      headers: { 'allowed-recipient-token': VIP_UUID },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.length).toBeGreaterThan(0);
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
    expect((await api.call('GET', `/store_front/nope/product_variants?product_ids=${watch}`)).body).toEqual(NOT_FOUND);
  });
});

describe('bundles', () => {
  test('three demo bundles with summed prices and item images', async () => {
    const res = await api.call('GET', '/store_front/acme/bundles');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
    const kit = res.body.data.find((b: any) => b.attributes.name === 'Morning Coffee Kit');
    // pour-over 46.00 + beans 16.50 + 2 × mug 18.00
    expect(kit.attributes.price).toBe('98.50');
    expect(kit.attributes.images.length).toBeGreaterThan(0);
    expect(kit.attributes.default_e_commerce_image_id).toBe(kit.attributes.images[0].id);
  });

  test('one bundle and its items', async () => {
    const id = await bundleId(api.db, 'coffee-kit');
    const bundle = await api.call('GET', `/store_front/acme/bundles/${id}`);
    expect(bundle.body.data).toMatchObject({ id, type: 'bundle' });
    const items = await api.call('GET', `/store_front/acme/bundles/${id}/bundle_items`);
    expect(items.status).toBe(200);
    expect(
      items.body.data.map((i: any) => [i.attributes.product_name, i.attributes.quantity, i.attributes.price]),
    ).toEqual([
      ['Pour-Over Coffee Set', 1, '46.00'],
      ['Single-Origin Coffee Beans', 1, '16.50'],
      ['Stoneware Mug', 2, '18.00'],
    ]);
  });

  test("one call answers each bundle's items exactly as its own items call does, in the order asked (extension)", async () => {
    const ids = [await bundleId(api.db, 'coffee-kit')];
    const all = await api.call('GET', '/store_front/acme/bundles');
    for (const bundle of all.body.data) if (!ids.includes(bundle.id)) ids.unshift(bundle.id);
    const singles = await Promise.all(ids.map((id) => api.call('GET', `/store_front/acme/bundles/${id}/bundle_items`)));
    const bulk = await api.call('GET', `/store_front/acme/bundle_items?bundle_ids=${ids.join(',')},999999,${ids[0]}`);
    expect(bulk.status).toBe(200);
    expect(bulk.headers.get('cache-control')).toBe(singles[0]!.headers.get('cache-control'));
    expect(bulk.body).toEqual({ data: singles.flatMap((single) => single.body.data) });
    // Byte for byte: what a snapshot cuts out of the bulk answer is what the single call answers.
    const last = bulk.body.data.filter((item: any) => item.attributes.bundle_id === ids.at(-1));
    expect(JSON.stringify({ data: last })).toBe(singles.at(-1)!.text);
    // Another store's bundle ids have none.
    const vip = await api.call('GET', `/store_front/vip/bundle_items?bundle_ids=${ids.join(',')}`, {
      headers: { 'allowed-recipient-token': '8f14e45f-ea1c-4b4e-9d6a-000000000001' },
    });
    expect(vip.status).toBe(200);
    expect(vip.body).toEqual({ data: [] });
  });

  test('missing or malformed bundle ids, or more than 500, answer 422 with an errors map', async () => {
    const tooMany = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    for (const query of [
      '',
      '?bundle_ids=',
      '?bundle_ids=a',
      '?bundle_ids=1,,2',
      '?bundle_ids=0',
      `?bundle_ids=${tooMany}`,
    ]) {
      const res = await api.call('GET', `/store_front/acme/bundle_items${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors, query).toEqual({
        bundle_ids: ['Bundle ids must be 1 to 500 bundle ids separated by commas.'],
      });
    }
  });

  test('unknown bundle ids are 404', async () => {
    expect((await api.call('GET', '/store_front/acme/bundles/999999')).body).toEqual(NOT_FOUND);
    expect((await api.call('GET', '/store_front/acme/bundles/x/bundle_items')).status).toBe(404);
    expect((await api.call('GET', '/store_front/nope/bundles')).status).toBe(404);
  });
});
