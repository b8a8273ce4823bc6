/**
 * The catalog pages of a store for the build script: which paths exist, and the page data
 * (`_payload.json`) behind each path. Pages and the build call the same loaders.
 */
import type { Many } from '../contract/answers.ts';
import { loadBundle, type BundlePageData } from './bundle.ts';
import type { CatalogApi } from './catalog-api.ts';
import { loadProduct, type ProductPageData } from './product.ts';
import { loadShop, parseShopQuery, type ShopData } from './shop.ts';
import { loadStoreFront, type StoreFrontData } from './store-front.ts';

/** What `{path}/_payload.json` holds. */
export type CatalogPayload =
  | { page: 'store-front'; path: string; data: StoreFrontData }
  | { page: 'shop'; path: string; data: ShopData }
  | { page: 'product'; path: string; data: ProductPageData }
  | { page: 'bundle'; path: string; data: BundlePageData };

export type CatalogRoute =
  | { page: 'store-front'; slug: string }
  | { page: 'shop'; slug: string; search: URLSearchParams }
  | { page: 'product'; slug: string; id: string }
  | { page: 'bundle'; slug: string; id: string };

const STORE_SEGMENT = '([A-Za-z0-9][A-Za-z0-9_-]*)';
const ROUTES: [RegExp, (m: RegExpExecArray, search: URLSearchParams) => CatalogRoute][] = [
  [new RegExp(`^/${STORE_SEGMENT}/?$`), (m) => ({ page: 'store-front', slug: m[1]! })],
  [new RegExp(`^/${STORE_SEGMENT}/shop/?$`), (m, search) => ({ page: 'shop', slug: m[1]!, search })],
  [
    new RegExp(`^/${STORE_SEGMENT}/product/([^/]+)/?$`),
    (m) => ({ page: 'product', slug: m[1]!, id: decodeURIComponent(m[2]!) }),
  ],
  [
    new RegExp(`^/${STORE_SEGMENT}/product-bundle/([^/]+)/?$`),
    (m) => ({ page: 'bundle', slug: m[1]!, id: decodeURIComponent(m[2]!) }),
  ],
];

/** Which catalog page a prefixed path (`/acme/product/7`, query allowed) names, or null. */
export function matchCatalogPath(pathWithQuery: string): CatalogRoute | null {
  const url = new URL(pathWithQuery, 'http://x');
  for (const [pattern, route] of ROUTES) {
    const m = pattern.exec(url.pathname);
    if (m) {
      try {
        return route(m, url.searchParams);
      } catch {
        return null; // a malformed %-escape names no page
      }
    }
  }
  return null;
}

/** The page data of a prefixed catalog path as `_payload.json` holds it; null when none. */
export async function loadCatalogPayload(api: CatalogApi, pathWithQuery: string): Promise<CatalogPayload | null> {
  const route = matchCatalogPath(pathWithQuery);
  if (!route) return null;
  const path = pathWithQuery;
  switch (route.page) {
    case 'store-front':
      return { page: 'store-front', path, data: await loadStoreFront(api, { slug: route.slug }) };
    case 'shop':
      return {
        page: 'shop',
        path,
        data: await loadShop(api, { slug: route.slug, query: parseShopQuery(route.search) }),
      };
    case 'product': {
      const data = await loadProduct(api, { slug: route.slug, id: route.id });
      return data && { page: 'product', path, data };
    }
    case 'bundle': {
      const data = await loadBundle(api, { slug: route.slug, id: route.id });
      return data && { page: 'bundle', path, data };
    }
  }
}

const LIST_PAGE_SIZE = 500;

/** The ids of a paged list, one page's new ones at a time; stops on a short page or one that repeats ids. */
async function* idPages(fetchPage: (page: number) => Promise<Many<{ id: string }>>): AsyncGenerator<string[]> {
  const seen = new Set<string>();
  for (let page = 1; ; page++) {
    const list = await fetchPage(page);
    const fresh = list.data.filter((item) => !seen.has(item.id)).map((item) => item.id);
    for (const id of fresh) seen.add(id);
    if (fresh.length > 0) yield fresh;
    const total = list.meta?.total;
    const done = fresh.length === 0 || list.data.length < LIST_PAGE_SIZE || (total !== undefined && seen.size >= total);
    if (done) return;
  }
}

/** Every id of a paged list. */
async function allIds(fetchPage: (page: number) => Promise<Many<{ id: string }>>): Promise<string[]> {
  return (await Array.fromAsync(idPages(fetchPage))).flat();
}

/**
 * A store's products and bundles, when known without listing them: those of the live build, when no write
 * since could have added, removed or renamed one (docs/decisions/225-publish-from-catalog-changes.md).
 */
export type CatalogIds = { products: string[]; bundles: string[] };

/**
 * Every path the build prerenders for a public store, as soon as it is known: home, shop (page 1), each
 * product (a list page of them at a time, so a build can start on them while the rest are listed), each
 * bundle, its collections (page 1), its policy pages, and the sitemap. Restricted stores must not be passed
 * in (their API calls answer 422 without the shopper's tokens anyway).
 */
export async function* catalogPaths(
  api: CatalogApi,
  slug: string,
  { known, idsOnly = false }: { known?: CatalogIds | undefined; idsOnly?: boolean } = {},
): AsyncGenerator<string> {
  const base = `/${slug}`;
  const query = (page: number) => ({ page, per_page: LIST_PAGE_SIZE, sort: 'name' as const });
  // Asked for beside the products, awaited after them (where a failure of either is thrown).
  const store = api.getStore(slug);
  const bundleIds = known
    ? Promise.resolve(known.bundles)
    : allIds((page) => (idsOnly ? api.listBundleIds(slug, query(page)) : api.listBundles(slug, query(page))));
  store.catch(() => undefined);
  bundleIds.catch(() => undefined);
  yield base;
  yield `${base}/shop`;
  const productIds = known
    ? [known.products]
    : idPages((page) => (idsOnly ? api.listProductIds(slug, query(page)) : api.listProducts(slug, query(page))));
  for await (const ids of productIds) for (const id of ids) yield `${base}/product/${encodeURIComponent(id)}`;
  for (const id of await bundleIds) yield `${base}/product-bundle/${encodeURIComponent(id)}`;
  const { attributes } = (await store).data;
  for (const collection of attributes.collections ?? [])
    yield `${base}/collections/${encodeURIComponent(collection.handle)}`;
  for (const kind of attributes.policies ?? []) yield `${base}/policies/${kind}`;
  yield `${base}/sitemap.xml`;
}

/**
 * Every path of `catalogPaths`, in its order, from the lists' ids alone (`fields=id`): a price or stock
 * change leaves the sitemap's reads as they were (docs/decisions/225-publish-from-catalog-changes.md).
 */
export async function listCatalogPaths(api: CatalogApi, slug: string): Promise<string[]> {
  return Array.fromAsync(catalogPaths(api, slug, { idsOnly: true }));
}
