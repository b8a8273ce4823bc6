/** The catalog calls: products, variants, bundles (spec §7 plus the ListQuery extension). */
import type {
  Bundle,
  BundleItem,
  Collection,
  ItemId,
  Listing,
  ListingPage,
  Many,
  One,
  Policy,
  PolicyKind,
  Product,
  ProductVariant,
} from '../contract/answers.ts';
import type { ListingQuery, ListQuery } from '../contract/payloads.ts';
import { queryString } from './query-string.ts';
import { seg, sf, type Requester } from './requester.ts';

/** GET store_front/{slug}/products (ListQuery extension). */
export const listProducts = (request: Requester, slug: string, query?: ListQuery) =>
  request<Many<Product>>('GET', `${sf(slug)}/products${queryString(query)}`);

/** GET store_front/{slug}/products?fields=id (extension): the ids of a page of `listProducts`. */
export const listProductIds = (request: Requester, slug: string, query?: ListQuery) =>
  request<Many<ItemId>>('GET', `${sf(slug)}/products${queryString({ ...query, fields: 'id' })}`);

/** GET store_front/{slug}/products/{id} (extension). */
export const getProduct = (request: Requester, slug: string, id: string) =>
  request<One<Product>>('GET', `${sf(slug)}/products/${seg(id)}`);

/** GET store_front/{slug}/products/{id}/product_variants. */
export const listProductVariants = (request: Requester, slug: string, productId: string) =>
  request<Many<ProductVariant>>('GET', `${sf(slug)}/products/${seg(productId)}/product_variants`);

/** GET store_front/{slug}/bundles (ListQuery extension). */
export const listBundles = (request: Requester, slug: string, query?: ListQuery) =>
  request<Many<Bundle>>('GET', `${sf(slug)}/bundles${queryString(query)}`);

/** GET store_front/{slug}/bundles?fields=id (extension): the ids of a page of `listBundles`. */
export const listBundleIds = (request: Requester, slug: string, query?: ListQuery) =>
  request<Many<ItemId>>('GET', `${sf(slug)}/bundles${queryString({ ...query, fields: 'id' })}`);

/** GET store_front/{slug}/bundles/{id} (extension). */
export const getBundle = (request: Requester, slug: string, id: string) =>
  request<One<Bundle>>('GET', `${sf(slug)}/bundles/${seg(id)}`);

/** GET store_front/{slug}/bundles/{id}/bundle_items. */
export const listBundleItems = (request: Requester, slug: string, bundleId: string) =>
  request<Many<BundleItem>>('GET', `${sf(slug)}/bundles/${seg(bundleId)}/bundle_items`);

/** GET store_front/{slug}/policies/{kind} (extension): one of the store's policy pages. */
export const getPolicy = (request: Requester, slug: string, kind: PolicyKind) =>
  request<Policy>('GET', `${sf(slug)}/policies/${seg(kind)}`);

/** GET store_front/{slug}/listings (extension): products and bundles sorted together (the shop). */
export const listListings = (request: Requester, slug: string, query?: ListingQuery) =>
  request<ListingPage<Listing>>('GET', `${sf(slug)}/listings${queryString(query)}`);

/** GET store_front/{slug}/collections/{handle} (extension): one collection. */
export const getCollection = (request: Requester, slug: string, handle: string) =>
  request<One<Collection>>('GET', `${sf(slug)}/collections/${seg(handle)}`);

/** GET store_front/{slug}/collections/{handle}/listings (extension): the shop's list of one collection's items. */
export const listCollectionListings = (request: Requester, slug: string, handle: string, query?: ListingQuery) =>
  request<ListingPage<Listing>>('GET', `${sf(slug)}/collections/${seg(handle)}/listings${queryString(query)}`);

/** GET store_front/{slug}/products/{id}/collections (extension): the collections a product is in. */
export const listProductCollections = (request: Requester, slug: string, productId: string) =>
  request<Many<Collection>>('GET', `${sf(slug)}/products/${seg(productId)}/collections`);
