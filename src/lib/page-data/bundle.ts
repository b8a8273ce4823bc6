import type { Image } from '../contract/answers.ts';
import { bundleItemView, orderGallery, type BundleItemView } from '../catalog/catalog-card.ts';
import { hasStatus, isCatalogId, type CatalogApi } from './catalog-api.ts';

export type BundleParams = {
  slug: string;
  id: string | undefined;
};

export type BundlePageData = {
  bundle: {
    id: string;
    name: string;
    description: string;
    /** The bundle's total: item prices × quantities. */
    price: string;
    available: boolean;
    gallery: Image[];
  };
  items: BundleItemView[];
};

/** The bundle page's data, or null when there is no such bundle (the page answers 404). */
export async function loadBundle(api: CatalogApi, { slug, id }: BundleParams): Promise<BundlePageData | null> {
  if (!isCatalogId(id)) return null;
  try {
    const [bundle, items] = await Promise.all([api.getBundle(slug, id), api.listBundleItems(slug, id)]);
    const a = bundle.data.attributes;
    return {
      bundle: {
        id: bundle.data.id,
        name: a.name,
        description: a.description,
        price: a.price,
        available: a.available,
        gallery: orderGallery(a.images, a.default_e_commerce_image_id),
      },
      items: items.data.map(bundleItemView),
    };
  } catch (error) {
    if (hasStatus(error, 404)) return null;
    throw error;
  }
}
