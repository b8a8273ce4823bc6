/**
 * The API calls the catalog loaders use, bound to one requester (`catalogApi`) or stubbed in tests:
 * anything with these methods.
 */
import {
  bindCalls,
  getBundle,
  getCollection,
  getPolicy,
  getProduct,
  getStore,
  listBundleItems,
  listBundles,
  listCollectionListings,
  listListings,
  listProductCollections,
  listProductVariants,
  listProducts,
  type BoundCalls,
  type Requester,
} from '../api-client/index.ts';
// Not in the index: the islands import the index, and the search call is for pages and the header only.
import { searchListings } from '../api-client/search.ts';
// The same: only the build's lister and the sitemap list ids.
import { listBundleIds, listProductIds } from '../api-client/catalog.ts';

const catalogCalls = {
  getStore,
  listProducts,
  listProductIds,
  getProduct,
  listProductVariants,
  listBundles,
  listBundleIds,
  getBundle,
  listBundleItems,
  getPolicy,
  listListings,
  getCollection,
  listCollectionListings,
  listProductCollections,
  searchListings,
};

export type CatalogApi = BoundCalls<typeof catalogCalls>;

/** The catalog calls over one requester. */
export const catalogApi = (request: Requester): CatalogApi => bindCalls(request, catalogCalls);

/** True for an API error answer with one of `statuses` (ApiError carries `status`). */
export function hasStatus(error: unknown, ...statuses: number[]): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && statuses.includes(status);
}

/** Ids in our URLs: what the API issues, nothing that could reshape the API path. */
export function isCatalogId(id: string | undefined): id is string {
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id);
}
