import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { importCatalog } from '../../src/server/catalog/import.ts';
import { ADDRESS, newToken, startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

const catalog = {
  store: { slug: 'imported', title: 'Imported Goods', tax_rate_bps: 500, shipping_flat: '2.00' },
  products: [
    {
      id: 'mug',
      name: 'Plain Mug',
      description_html:
        '<p onclick="steal()">Nice <img src=x onerror=alert(1)><script>alert(1)</script><a href="javascript:alert(1)">link</a></p>',
      images: [{ url: '/images/demo/ceramic-mug-1.svg' }],
      variants: [{ sku: 'MUG', name: 'Default', price: '9.99', stock: 5 }],
    },
  ],
  bundles: [{ id: 'two-mugs', name: 'Two Mugs', items: [{ product: 'mug', sku: 'MUG', quantity: 2 }] }],
  gift_cards: [{ code: 'imp-10', balance: '10.00' }],
};

describe('catalog import', () => {
  test('an imported store is served by the API with sanitised descriptions', async () => {
    await importCatalog(api.db, parseCatalog(catalog));
    const products = await api.call('GET', '/store_front/imported/products');
    expect(products.body.data).toHaveLength(1);
    const description: string = products.body.data[0].attributes.description;
    expect(description).toContain('Nice');
    expect(description).not.toMatch(/onclick|onerror|<script|<img|javascript:/i);
    const bundles = await api.call('GET', '/store_front/imported/bundles');
    expect(bundles.body.data[0].attributes.price).toBe('19.98');
  });

  test('re-importing updates in place and keeps gift card balances', async () => {
    await importCatalog(api.db, parseCatalog(catalog));
    await api.db.updateTable('gift_cards').set({ balance_cents: 300 }).where('code', '=', 'IMP-10').execute();
    const changed = structuredClone(catalog);
    changed.products[0]!.variants[0]!.price = '11.00';
    await importCatalog(api.db, parseCatalog(changed));
    const products = await api.call('GET', '/store_front/imported/products');
    expect(products.body.data).toHaveLength(1);
    expect(products.body.data[0].attributes.price).toBe('11.00');
    const card = await api.db
      .selectFrom('gift_cards')
      .select('balance_cents')
      .where('code', '=', 'IMP-10')
      .executeTakeFirstOrThrow();
    expect(card.balance_cents).toBe(300);
  });

  test('a cart holding a bundle follows an import that changes the bundle’s items, and is left alone by one that does not', async () => {
    const slug = 'bundle-follow';
    const store = { ...catalog.store, slug };
    await importCatalog(api.db, parseCatalog({ ...catalog, store }));
    const bundleId = (await api.call('GET', `/store_front/${slug}/bundles`)).body.data[0].id;
    const token = newToken();
    const added = await api.call('POST', `/store_front/${slug}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { bundle_id: bundleId, quantity: 2 } },
    });
    expect(added.status, added.text).toBeLessThan(300);
    const lineIds = async () =>
      (
        (await api.call('GET', `/store_front/${slug}/cart`, { token })).body.cartItems as {
          id: string;
          quantity: number;
        }[]
      ).map((l) => [l.id, l.quantity]);
    const before = await lineIds();
    expect(before.map(([, quantity]) => quantity)).toEqual([4]);

    await importCatalog(api.db, parseCatalog({ ...catalog, store }));
    expect(await lineIds()).toEqual(before);

    const threeMugs = {
      ...catalog,
      store,
      bundles: [{ ...catalog.bundles[0]!, items: [{ product: 'mug', sku: 'MUG', quantity: 3 }] }],
    };
    await importCatalog(api.db, parseCatalog(threeMugs));
    expect((await lineIds()).map(([, quantity]) => quantity)).toEqual([6]);
  });

  test('a store’s low-stock threshold is imported and answered in its store info, 5 when the file leaves it out', async () => {
    await importCatalog(
      api.db,
      parseCatalog({ ...catalog, store: { ...catalog.store, slug: 'few-left', low_stock_threshold: 2 } }),
    );
    expect((await api.call('GET', '/store_front/few-left')).body.data.attributes.lowStockThreshold).toBe(2);
    await importCatalog(api.db, parseCatalog({ ...catalog, store: { ...catalog.store, slug: 'default-few' } }));
    expect((await api.call('GET', '/store_front/default-few')).body.data.attributes.lowStockThreshold).toBe(5);
    expect(() => parseCatalog({ ...catalog, store: { ...catalog.store, low_stock_threshold: -1 } })).toThrow(
      /store\.low_stock_threshold/,
    );
  });

  test('an invalid catalog is refused naming the field, and a bad bundle leaves nothing written', async () => {
    expect(() =>
      parseCatalog({
        store: { slug: 'x', title: 'X' },
        products: [{ id: 'a', name: 'A', variants: [{ sku: 'A', name: 'A', price: '1.999', stock: 1 }] }],
      }),
    ).toThrow(/products\.0\.variants\.0\.price/);
    const broken = parseCatalog({
      ...catalog,
      store: { ...catalog.store, slug: 'broken' },
      bundles: [{ id: 'b', name: 'B', items: [{ product: 'nope', sku: 'NOPE', quantity: 1 }] }],
    });
    await expect(importCatalog(api.db, broken)).rejects.toThrow(/no product nope/);
    expect((await api.call('GET', '/store_front/broken')).status).toBe(404);
  });
});

describe('tax and shipping settings', () => {
  const withPricing = (store: Record<string, unknown>) => ({
    ...catalog,
    store: { ...catalog.store, slug: 'priced', ...store },
  });

  test('an image may show variants, named by SKU: each variant answers its own images in gallery order', async () => {
    const tee = {
      id: 'tee',
      name: 'Tee',
      option_names: ['Color'],
      images: [
        { url: '/images/demo/tee-front.svg' },
        { url: '/images/demo/tee-navy-front.svg', variant_skus: ['TEE-NAVY'] },
        { url: '/images/demo/tee-red-front.svg', variant_skus: ['TEE-RED'] },
        { url: '/images/demo/tee-navy-back.svg', variant_skus: ['TEE-NAVY', 'TEE-NAVY'] },
      ],
      variants: [
        { sku: 'TEE-RED', name: 'Red', options: { Color: 'Red' }, price: '18.00', stock: 3 },
        { sku: 'TEE-NAVY', name: 'Navy', options: { Color: 'Navy' }, price: '18.00', stock: 3 },
      ],
    };
    const store = { ...catalog.store, slug: 'variant-images' };
    await importCatalog(api.db, parseCatalog({ store, products: [tee] }));
    const [product] = (await api.call('GET', '/store_front/variant-images/products')).body.data;
    const imagesAt = (url: string) => product.attributes.images.filter((i: { url: string }) => i.url.includes(url));
    const ids = (url: string) => imagesAt(url).map((i: { id: string }) => i.id);
    const variants = (await api.call('GET', `/store_front/variant-images/products/${product.id}/product_variants`)).body
      .data;
    const bySku = Object.fromEntries(variants.map((v: { attributes: { sku: string } }) => [v.attributes.sku, v]));
    expect(bySku['TEE-RED'].attributes.image_ids).toEqual(ids('tee-red'));
    expect(bySku['TEE-NAVY'].attributes.image_ids).toEqual(ids('tee-navy'));
    expect(ids('tee-navy')).toHaveLength(2);

    // Re-imported without them, the links go with the images.
    const plain = { ...tee, images: tee.images.map(({ url }) => ({ url })) };
    await importCatalog(api.db, parseCatalog({ store, products: [plain] }));
    const again = (await api.call('GET', `/store_front/variant-images/products/${product.id}/product_variants`)).body
      .data;
    expect(again.map((v: { attributes: { image_ids: string[] } }) => v.attributes.image_ids)).toEqual([[], []]);
  });

  test('an image naming a SKU its product does not have is refused, naming the field', () => {
    const product = {
      id: 'tee',
      name: 'Tee',
      images: [{ url: '/images/demo/tee.svg', variant_skus: ['TEE-GREEN'] }],
      variants: [{ sku: 'TEE-RED', name: 'Red', price: '18.00', stock: 3 }],
    };
    expect(() => parseCatalog({ store: catalog.store, products: [product] })).toThrow(
      /products\.0\.images\.0\.variant_skus\.0.*no variant with sku TEE-GREEN in product tee/s,
    );
  });

  test('a SKU twice in a product, a colon in an option name or a control character in a value is refused, naming the field', () => {
    const variant = { sku: 'TEE-RED', name: 'Red', price: '18.00', stock: 3 };
    const refused: [unknown, RegExp][] = [
      [
        { variants: [variant, { ...variant, name: 'Red again' }] },
        /products\.0\.variants\.1\.sku.*used by another variant/s,
      ],
      [{ option_names: ['Size:EU'], variants: [variant] }, /products\.0\.option_names\.0.*colon/s],
      [
        { variants: [{ ...variant, options: { Size: 'M\u001fL' } }] },
        /products\.0\.variants\.0\.options\.Size.*control/s,
      ],
    ];
    for (const [fields, message] of refused) {
      const product = { id: 'tee', name: 'Tee', ...(fields as object) };
      expect(() => parseCatalog({ store: catalog.store, products: [product] })).toThrow(message);
    }
  });

  test('a product id twice in a catalog is refused, naming the second, instead of the later replacing the earlier', () => {
    const tee = { id: 'tee', name: 'Tee', variants: [{ sku: 'TEE-RED', name: 'Red', price: '18.00', stock: 3 }] };
    expect(() => parseCatalog({ store: catalog.store, products: [tee, { ...tee, name: 'Other tee' }] })).toThrow(
      /products\.1\.id.*used by another product/s,
    );
  });

  test('a store slug the site uses for its own pages (the console’s /admin, /api …) is refused', () => {
    for (const slug of ['admin', 'api', 'builds', 'restricted']) {
      expect(() => parseCatalog({ store: { ...catalog.store, slug } })).toThrow(/store\.slug.*site’s own pages/s);
    }
  });

  test('an imported store prices a cart by its rates and zones', async () => {
    await importCatalog(
      api.db,
      parseCatalog(
        withPricing({
          tax_rates: [
            { country: 'ca', rate_bps: 500 },
            { country: 'CA', region: 'on', rate_bps: 1300 },
          ],
          shipping_zones: [{ name: 'Canada', countries: ['CA'], rate: '7.00', free_shipping_threshold: '50.00' }],
        }),
      ),
    );
    const mug = await api.db
      .selectFrom('product_variants')
      .innerJoin('products', 'products.id', 'product_variants.product_id')
      .innerJoin('stores', 'stores.id', 'products.store_id')
      .where('stores.slug', '=', 'priced')
      .select('product_variants.id')
      .executeTakeFirstOrThrow();
    const token = newToken();
    await api.call('POST', '/store_front/priced/cart/cart_line_items', {
      token,
      body: { cart_line_item: { product_variant_id: String(mug.id), quantity: 1 } },
    });
    const ontario = await api.call('PUT', '/store_front/priced/cart', {
      token,
      body: { cart: { ...ADDRESS, country: 'CA', state: 'ON', zip: 'M5V 2T6' } },
    });
    expect(ontario.body).toMatchObject({
      subTotal: '9.99',
      tax: '1.30',
      shippingFee: '7.00',
      freeShippingThreshold: '50.00',
    });
    // No zone lists the US and there is no * zone: the store's own rate (and its tax default).
    const us = await api.call('PUT', '/store_front/priced/cart', { token, body: { cart: ADDRESS } });
    expect(us.body).toMatchObject({ tax: '0.50', shippingFee: '2.00', freeShippingThreshold: null });
  });

  test.each([
    ['an unknown country', { tax_rates: [{ country: 'XX', rate_bps: 100 }] }, /tax_rates\.0\.country/],
    [
      'a region the country does not have',
      { tax_rates: [{ country: 'US', region: 'ZZ', rate_bps: 100 }] },
      /tax_rates\.0\.region/,
    ],
    ['a rate over 100 %', { tax_rates: [{ country: 'US', rate_bps: 10_001 }] }, /tax_rates\.0\.rate_bps/],
    [
      'one country twice',
      {
        tax_rates: [
          { country: 'US', rate_bps: 100 },
          { country: 'us', rate_bps: 200 },
        ],
      },
      /each country and region may have one rate/,
    ],
    [
      'a country in two zones',
      {
        shipping_zones: [
          { name: 'A', countries: ['US'], rate: '1.00' },
          { name: 'B', countries: ['CA', 'US'], rate: '2.00' },
        ],
      },
      /a country \(or \*\) may be in one zone only/,
    ],
    ['a zone without countries', { shipping_zones: [{ name: 'A', countries: [], rate: '1.00' }] }, /countries/],
    ['a zone rate with three decimals', { shipping_zones: [{ name: 'A', countries: ['US'], rate: '1.005' }] }, /rate/],
  ])('%s is refused, naming the field', (_name, store, message) => {
    expect(() => parseCatalog(withPricing(store))).toThrow(message);
  });
});

describe('image and favicon URLs', () => {
  const withUrl = (url: string) => ({
    ...catalog,
    store: { ...catalog.store, favicon_url: url, hero_image_url: url },
    products: [{ ...catalog.products[0]!, images: [{ url }] }],
  });

  test.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://files.example/x.png',
    '//evil.example/x.png',
    '/\\evil.example/x.png',
    'images/x.svg',
    'https://',
  ])('%s is refused for product images, the favicon and the hero image', (url) => {
    let message = '';
    try {
      parseCatalog(withUrl(url));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/store\.favicon_url: must be an http\(s\) URL or a path of this site/);
    expect(message).toMatch(/store\.hero_image_url: must be an http\(s\) URL or a path of this site/);
    expect(message).toMatch(/products\.0\.images\.0\.url: must be an http\(s\) URL or a path of this site/);
  });

  test.each([
    '/images/demo/ceramic-mug-1.svg',
    '/vip/media/watch-1.svg',
    'https://cdn.example.com/a.png',
    'http://cdn.example.com/a.png?v=2',
  ])('%s is accepted', (url) => {
    const parsed = parseCatalog(withUrl(url));
    expect(parsed.store.favicon_url).toBe(url);
    expect(parsed.store.hero_image_url).toBe(url);
    expect(parsed.products[0]!.images[0]!.url).toBe(url);
  });
});

test('a custom domain is kept lower-case and without a trailing dot, as hosts are looked up', async () => {
  const parsed = parseCatalog({
    ...catalog,
    store: { ...catalog.store, slug: 'dotted', custom_domain: 'Shop.Dotted.Test.' },
  });
  expect(parsed.store.custom_domain).toBe('shop.dotted.test');
  await importCatalog(api.db, parsed);
  expect((await api.call('GET', '/store_front?custom_domain=shop.dotted.test.')).body.data.attributes.slug).toBe(
    'dotted',
  );
});
