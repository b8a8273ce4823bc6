import { bundleCard, productCard, type CatalogCard } from '../catalog/catalog-card.ts';
import type { CatalogApi } from './catalog-api.ts';

export const FEATURED_LIMIT = 8;

export type StoreFrontParams = {
  slug: string;
};

export type StoreFrontData = {
  featuredProducts: CatalogCard[];
  featuredBundles: CatalogCard[];
};

/**
 * The store front's data: featured products and bundles. A store that features no product shows
 * its first products by name instead, so the front is never empty while the shop is not.
 */
export async function loadStoreFront(api: CatalogApi, { slug }: StoreFrontParams): Promise<StoreFrontData> {
  const [featured, bundles] = await Promise.all([
    api.listProducts(slug, { featured: true, per_page: FEATURED_LIMIT, sort: 'name' }),
    api.listBundles(slug, { featured: true, per_page: FEATURED_LIMIT, sort: 'name' }),
  ]);
  const products =
    featured.data.length > 0 ? featured : await api.listProducts(slug, { per_page: FEATURED_LIMIT, sort: 'name' });
  return {
    featuredProducts: products.data.slice(0, FEATURED_LIMIT).map(productCard),
    featuredBundles: bundles.data.slice(0, FEATURED_LIMIT).map(bundleCard),
  };
}
