import type { Collection } from '../contract/answers.ts';
import { isCollectionHandle } from '../slug.ts';
import { hasStatus, type CatalogApi } from './catalog-api.ts';
import { loadShop, type ShopData, type ShopQuery } from './shop.ts';

export type CollectionPageData = { collection: Collection['attributes']; shop: ShopData };

/**
 * A collection page: the collection and one page of its products and bundles, loaded as the shop's
 * list is (docs/decisions/190-collections.md). Null when the store has no such collection.
 */
export async function loadCollection(
  api: CatalogApi,
  { slug, handle, query }: { slug: string; handle: string | undefined; query: ShopQuery },
): Promise<CollectionPageData | null> {
  if (!isCollectionHandle(handle)) return null;
  try {
    const [collection, shop] = await Promise.all([
      api.getCollection(slug, handle),
      loadShop(api, { slug, query, collection: handle }),
    ]);
    return { collection: collection.data.attributes, shop };
  } catch (error) {
    if (hasStatus(error, 404)) return null;
    throw error;
  }
}
