import { describe, expect, test } from 'vitest';
import { loadBundle } from '../../../src/lib/page-data/bundle.ts';
import {
  catalogPaths,
  listCatalogPaths,
  loadCatalogPayload,
  matchCatalogPath,
} from '../../../src/lib/page-data/catalog-pages.ts';
import { loadCollection } from '../../../src/lib/page-data/collection.ts';
import { loadProduct } from '../../../src/lib/page-data/product.ts';
import { activeFilters, NO_FILTERS } from '../../../src/lib/page-data/listing-filters.ts';
import { loadShop, parseShopQuery, SHOP_PAGE_SIZE, shopSearch } from '../../../src/lib/page-data/shop.ts';
import { loadStoreFront } from '../../../src/lib/page-data/store-front.ts';
import { kitchenSink, product, stubCatalogApi } from './fixtures/stub-catalog-api.ts';

describe('store front data', () => {
  test('shows featured products and bundles as cards with their default image', async () => {
    const data = await loadStoreFront(stubCatalogApi(kitchenSink()), { slug: 'acme' });
    expect(data.featuredProducts.map((c) => c.name)).toEqual(['Shirt']);
    expect(data.featuredProducts[0]!.image?.id).toBe('img-front');
    expect(data.featuredBundles).toEqual([
      { kind: 'bundle', id: '7', name: 'Starter kit', price: '29.50', image: null, available: true },
    ]);
  });

  test('falls back to the first products when none is featured', async () => {
    const catalog = kitchenSink();
    catalog.products = catalog.products.map((p) => ({ ...p, attributes: { ...p.attributes, featured: false } }));
    const data = await loadStoreFront(stubCatalogApi(catalog), { slug: 'acme' });
    expect(data.featuredProducts.map((c) => c.name)).toEqual(['Mug', 'Shirt', 'Sticker']);
  });
});

describe('shop filters in the URL', () => {
  test('reads filters leniently and writes them back in the same form', () => {
    const search = new URLSearchParams(
      'in_stock=true&price_min=20&price_max=80.5&option=Size:M&option=Size:L&option=bad',
    );
    const query = parseShopQuery(search);
    expect(query.filters).toEqual({ inStock: true, priceMin: '20', priceMax: '80.5', options: ['Size:M', 'Size:L'] });
    expect(shopSearch({ ...query, page: 2 })).toBe(
      '?in_stock=true&price_min=20&price_max=80.5&option=Size%3AM&option=Size%3AL&page=2',
    );
    // Bad bounds are dropped; a minimum above the maximum gives way to it.
    expect(parseShopQuery(new URLSearchParams('price_min=abc&price_max=-3')).filters).toEqual(NO_FILTERS);
    expect(parseShopQuery(new URLSearchParams('price_min=90&price_max=10')).filters.priceMin).toBe('');
  });

  test('each active filter is a link without it', () => {
    const filters = { inStock: true, priceMin: '', priceMax: '50', options: ['Size:M', 'Color:Navy'] };
    expect(activeFilters(filters).map((f) => [f.label, shopSearch({ filters: f.without })])).toEqual([
      ['In stock', '?price_max=50&option=Size%3AM&option=Color%3ANavy'],
      ['Size: M', '?in_stock=true&price_max=50&option=Color%3ANavy'],
      ['Color: Navy', '?in_stock=true&price_max=50&option=Size%3AM'],
      ['Up to $50.00', '?in_stock=true&option=Size%3AM&option=Color%3ANavy'],
    ]);
  });

  test('filters go to the API; nothing matching offers featured items', async () => {
    const api = stubCatalogApi(kitchenSink());
    const filters = { inStock: true, priceMin: '1', priceMax: '', options: ['Size:M'] };
    await loadShop(api, { slug: 'acme', query: { page: 1, sort: 'name', q: 'zzz', filters } });
    expect(api.calls).toEqual([
      `listListings acme ${JSON.stringify({ page: 1, per_page: SHOP_PAGE_SIZE, sort: 'name', q: 'zzz', in_stock: true, price_min: '1', option: ['Size:M'] })}`,
      `listListings acme ${JSON.stringify({ featured: true, per_page: 4 })}`,
    ]);
  });
});

describe('shop data', () => {
  test('reads page, sort and search leniently, never failing on bad input', () => {
    expect(parseShopQuery(new URLSearchParams('page=3&sort=-price&q=%20mug%20'))).toEqual({
      page: 3,
      sort: '-price',
      q: 'mug',
      filters: NO_FILTERS,
    });
    expect(parseShopQuery(new URLSearchParams('page=-1&sort=drop table'))).toEqual({
      page: 1,
      sort: 'name',
      q: '',
      filters: NO_FILTERS,
    });
    expect(parseShopQuery(new URLSearchParams('page=1.5'))).toEqual({
      page: 1,
      sort: 'name',
      q: '',
      filters: NO_FILTERS,
    });
    expect(parseShopQuery(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(100);
  });

  test('the first page by name has the bare URL, so it is the static snapshot', () => {
    expect(shopSearch({ page: 1, sort: 'name', q: '' })).toBe('');
    expect(shopSearch({ page: 2, sort: 'price', q: 'mug' })).toBe('?q=mug&sort=price&page=2');
    // A collection's default is its own order: no sort; by name is then asked for.
    expect(parseShopQuery(new URLSearchParams('sort='), null)).toEqual({
      page: 1,
      sort: undefined,
      q: '',
      filters: NO_FILTERS,
    });
    expect(shopSearch({ page: 1, sort: undefined }, null)).toBe('');
    expect(shopSearch({ page: 1, sort: 'name' }, null)).toBe('?sort=name');
  });

  test('asks the API for one sorted, filtered page of products and bundles together', async () => {
    const api = stubCatalogApi(kitchenSink());
    const data = await loadShop(api, { slug: 'acme', query: { page: 1, sort: '-price', q: '', filters: NO_FILTERS } });
    // The bundle sits where its price puts it, among the products.
    expect(data.items.map((c) => [c.kind, c.name, c.price])).toEqual(
      [...data.items].sort((a, b) => Number(b.price) - Number(a.price)).map((c) => [c.kind, c.name, c.price]),
    );
    expect(data.items.map((c) => c.name).sort()).toEqual(['Mug', 'Shirt', 'Starter kit', 'Sticker']);
    expect(data.total).toBe(4);
    expect(data.pageCount).toBe(1);
    expect(api.calls).toEqual([
      `listListings acme ${JSON.stringify({ page: 1, per_page: SHOP_PAGE_SIZE, sort: '-price' })}`,
    ]);
  });

  test('text search filters products and bundles by name', async () => {
    const data = await loadShop(stubCatalogApi(kitchenSink()), {
      slug: 'acme',
      query: { page: 1, sort: 'name', q: 'mu', filters: NO_FILTERS },
    });
    expect(data.items.map((c) => c.name)).toEqual(['Mug']);
  });

  test('a 10,000-product store is paged 48 at a time', async () => {
    const catalog = kitchenSink();
    catalog.products = Array.from({ length: 10_000 }, (_, i) =>
      product(String(i + 1), `Item ${String(i).padStart(5, '0')}`, '1.00'),
    );
    const data = await loadShop(stubCatalogApi(catalog), {
      slug: 'acme',
      query: { page: 209, sort: 'name', q: '', filters: NO_FILTERS },
    });
    // 10,000 products and the kitchen sink's bundle, by name: "Item …" before "Starter kit".
    expect(data.pageCount).toBe(209);
    expect(data.items).toHaveLength(10_001 - 208 * 48);
    expect(data.items[0]!.name).toBe('Item 09984');
    expect(data.items.at(-1)!.name).toBe('Starter kit');
  });
});

describe('collection data', () => {
  const withCollections = () => ({
    ...kitchenSink(),
    collections: [{ handle: 'kitchen', title: 'Kitchen', members: ['2', '7', '3'] }],
  });

  test("a collection's page is the shop's list of its members only, sorted and paged alike", async () => {
    const api = stubCatalogApi(withCollections());
    const data = await loadCollection(api, {
      slug: 'acme',
      handle: 'kitchen',
      query: parseShopQuery(new URLSearchParams('sort=-price')),
    });
    expect(data?.collection).toEqual({ handle: 'kitchen', title: 'Kitchen', description: null });
    expect(data?.shop.items.map((card) => [card.kind, card.name])).toEqual([
      ['bundle', 'Starter kit'],
      ['product', 'Mug'],
      ['product', 'Sticker'],
    ]);
    expect(data?.shop.total).toBe(3);
    expect(api.calls).toContain(
      `listCollectionListings acme kitchen ${JSON.stringify({ page: 1, per_page: SHOP_PAGE_SIZE, sort: '-price' })}`,
    );
  });

  test('an unknown or malformed handle is null (404), the malformed one without asking the API', async () => {
    const api = stubCatalogApi(withCollections());
    const query = parseShopQuery(new URLSearchParams());
    expect(await loadCollection(api, { slug: 'acme', handle: 'garden', query })).toBeNull();
    const before = api.calls.length;
    expect(await loadCollection(api, { slug: 'acme', handle: '../cart', query })).toBeNull();
    expect(api.calls).toHaveLength(before);
  });
});

describe('product data', () => {
  test('puts the default image first and lists the variants', async () => {
    const data = await loadProduct(stubCatalogApi(kitchenSink()), { slug: 'acme', id: '1' });
    expect(data?.product.gallery.map((i) => i.id)).toEqual(['img-front', 'img-back']);
    expect(data?.product.optionNames).toEqual(['Size', 'Color']);
    expect(data?.variants.map((v) => [v.id, v.available])).toEqual([
      ['11', true],
      ['12', false],
      ['13', true],
    ]);
  });

  test('an unknown product is null (404), and a malformed id never reaches the API', async () => {
    const api = stubCatalogApi(kitchenSink());
    expect(await loadProduct(api, { slug: 'acme', id: '999' })).toBeNull();
    expect(await loadProduct(api, { slug: 'acme', id: '../cart' })).toBeNull();
    expect(api.calls.filter((c) => c.includes('../cart'))).toEqual([]);
  });

  test('an API failure other than 404 is thrown, not hidden as not found', async () => {
    const api = stubCatalogApi(kitchenSink());
    api.getProduct = async () => {
      throw Object.assign(new Error('down'), { status: 503 });
    };
    await expect(loadProduct(api, { slug: 'acme', id: '1' })).rejects.toThrow('down');
  });
});

describe('bundle data', () => {
  test('lists the items with images and the bundle total', async () => {
    const data = await loadBundle(stubCatalogApi(kitchenSink()), { slug: 'acme', id: '7' });
    expect(data?.bundle.price).toBe('29.50');
    expect(data?.items.map((i) => [i.productName, i.variantName, i.quantity, i.image?.id ?? null])).toEqual([
      ['Shirt', 'S / Red', 1, null],
      ['Mug', 'Default', 1, 'img-mug'],
    ]);
  });

  test('an unknown bundle is null (404)', async () => {
    expect(await loadBundle(stubCatalogApi(kitchenSink()), { slug: 'acme', id: '8' })).toBeNull();
  });
});

describe('catalog paths and payloads', () => {
  test('lists home, shop, every product and bundle page and the sitemap', async () => {
    expect(await listCatalogPaths(stubCatalogApi(kitchenSink()), 'acme')).toEqual([
      '/acme',
      '/acme/shop',
      '/acme/product/2',
      '/acme/product/1',
      '/acme/product/3',
      '/acme/product-bundle/7',
      '/acme/sitemap.xml',
    ]);
  });

  test("lists each collection's page, after the product and bundle pages", async () => {
    const catalog = kitchenSink();
    catalog.collections = [
      { handle: 'kitchen', title: 'Kitchen', members: ['2', '7'] },
      { handle: 'wear', title: 'Wear', members: ['1'] },
    ];
    const paths = await listCatalogPaths(stubCatalogApi(catalog), 'acme');
    expect(paths.slice(-3)).toEqual(['/acme/collections/kitchen', '/acme/collections/wear', '/acme/sitemap.xml']);
  });

  test('pages through a large catalog without missing or repeating a product', async () => {
    const catalog = kitchenSink();
    catalog.products = Array.from({ length: 1_234 }, (_, i) =>
      product(String(i + 1), `P${String(i).padStart(4, '0')}`, '1.00'),
    );
    const paths = await listCatalogPaths(stubCatalogApi(catalog), 'acme');
    const productPaths = paths.filter((p) => p.startsWith('/acme/product/'));
    expect(productPaths).toHaveLength(1_234);
    expect(new Set(productPaths).size).toBe(1_234);
  });

  test("gives a list page's products before the next list page is answered", async () => {
    const catalog = kitchenSink();
    catalog.products = Array.from({ length: 600 }, (_, i) =>
      product(String(i + 1), `P${String(i).padStart(4, '0')}`, '1.00'),
    );
    const api = stubCatalogApi(catalog);
    const secondPage = Promise.withResolvers<undefined>();
    const paths = catalogPaths(
      {
        ...api,
        listProducts: async (slug, query) => {
          if (query?.page === 2) await secondPage.promise;
          return api.listProducts(slug, query);
        },
      },
      'acme',
    );
    const first: string[] = [];
    // Home, shop and the first 500 products, while the second page of products is still unanswered.
    for (let i = 0; i < 502; i++) first.push((await paths.next()).value as string);
    expect(first.slice(0, 2)).toEqual(['/acme', '/acme/shop']);
    expect(first.slice(2).every((path) => path.startsWith('/acme/product/'))).toBe(true);
    secondPage.resolve(undefined);
    const rest = await Array.fromAsync(paths);
    expect(new Set([...first, ...rest].filter((path) => path.startsWith('/acme/product/'))).size).toBe(600);
    expect(rest.at(-1)).toBe('/acme/sitemap.xml');
  });

  test('the sitemap lists ids alone; the build lists whole items, or none when it knows them', async () => {
    const catalog = kitchenSink();
    const sitemap = stubCatalogApi(catalog);
    const bySitemap = await listCatalogPaths(sitemap, 'acme');
    expect(sitemap.calls.filter((call) => call.startsWith('list')).map((call) => call.split(' ')[0])).toEqual([
      'listBundleIds',
      'listProductIds',
    ]);
    const build = stubCatalogApi(catalog);
    expect(await Array.fromAsync(catalogPaths(build, 'acme'))).toEqual(bySitemap);
    expect(build.calls.some((call) => call.startsWith('listProductIds'))).toBe(false);
    // Known ids (the live build's, ADR 225): the same paths, and no list asked for.
    const known = stubCatalogApi(catalog);
    const idsIn = (prefix: string) =>
      bySitemap.filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
    const ids = { products: idsIn('/acme/product/'), bundles: idsIn('/acme/product-bundle/') };
    expect(await Array.fromAsync(catalogPaths(known, 'acme', { known: ids }))).toEqual(bySitemap);
    expect(known.calls.filter((call) => call.startsWith('list'))).toEqual([]);
  });

  test('matches each catalog path to its page', () => {
    expect(matchCatalogPath('/acme')).toEqual({ page: 'store-front', slug: 'acme' });
    expect(matchCatalogPath('/acme/product/1')).toEqual({ page: 'product', slug: 'acme', id: '1' });
    expect(matchCatalogPath('/acme/product-bundle/7/')).toEqual({ page: 'bundle', slug: 'acme', id: '7' });
    expect(matchCatalogPath('/acme/shop?page=2')?.page).toBe('shop');
    expect(matchCatalogPath('/acme/cart')).toBeNull();
    expect(matchCatalogPath('/acme/sitemap.xml')).toBeNull();
    expect(matchCatalogPath('/acme/product/%E0%A4%A')).toBeNull();
  });

  test('the payload names its page and path and holds the same data the page renders', async () => {
    const api = stubCatalogApi(kitchenSink());
    const payload = await loadCatalogPayload(api, '/acme/product/1');
    expect(payload).toEqual({
      page: 'product',
      path: '/acme/product/1',
      data: await loadProduct(api, { slug: 'acme', id: '1' }),
    });
    expect(JSON.parse(JSON.stringify(payload))).toEqual(payload);
    expect(await loadCatalogPayload(api, '/acme/product/404')).toBeNull();
    expect(await loadCatalogPayload(api, '/acme/sitemap.xml')).toBeNull();
    expect((await loadCatalogPayload(api, '/acme/shop'))?.page).toBe('shop');
  });
});

describe("a product's collections on its page", () => {
  const withCollections = () => ({
    ...kitchenSink(),
    collections: [
      { handle: 'wear', title: 'Wear', members: ['1', '7'] },
      { handle: 'kitchen', title: 'Kitchen', members: ['2', '1', '7', '3'] },
      { handle: 'other', title: 'Other', members: ['3'] },
    ],
  });

  test("its collections in the store's order, and related items from them, each once and never itself", async () => {
    const data = await loadProduct(stubCatalogApi(withCollections()), { slug: 'acme', id: '1' });
    expect(data?.collections).toEqual([
      { handle: 'wear', title: 'Wear' },
      { handle: 'kitchen', title: 'Kitchen' },
    ]);
    expect(data?.related.map((card) => `${card.kind}:${card.name}`)).toEqual([
      'bundle:Starter kit',
      'product:Mug',
      'product:Sticker',
    ]);
  });

  test('a product in no collection has none, and nothing related', async () => {
    const data = await loadProduct(stubCatalogApi(kitchenSink()), { slug: 'acme', id: '2' });
    expect(data?.collections).toEqual([]);
    expect(data?.related).toEqual([]);
  });
});
