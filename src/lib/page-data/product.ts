import type { CollectionLink, Image } from '../contract/answers.ts';
import {
  bundleCard,
  orderGallery,
  productCard,
  variantView,
  type CatalogCard,
  type VariantView,
} from '../catalog/catalog-card.ts';
import { hasStatus, isCatalogId, type CatalogApi } from './catalog-api.ts';

/** How many related items a product page shows, and from how many of its collections it takes them. */
export const RELATED_COUNT = 4;
const RELATED_COLLECTIONS = 3;

export type ProductParams = {
  slug: string;
  id: string | undefined;
};

export type ProductPageData = {
  product: {
    id: string;
    name: string;
    /** Sanitised HTML from the API (sanitised again when rendered). */
    description: string;
    price: string;
    available: boolean;
    optionNames: string[];
    /** Default image first. */
    gallery: Image[];
  };
  variants: VariantView[];
  /** Per variant id: its SKU and its own images' ids in gallery order (docs/decisions/193-variant-images.md). */
  variantMeta: Record<string, { sku: string; imageIds: string[] }>;
  /** The collections the product is in, in the store's order: the first is its breadcrumb. */
  collections: CollectionLink[];
  /** Other items of those collections, in their order, the first collection's first. */
  related: CatalogCard[];
};

/**
 * Up to RELATED_COUNT other products and bundles of the product's first collections, each once:
 * one page of each collection's list (docs/decisions/190-collections.md).
 */
async function relatedItems(
  api: CatalogApi,
  slug: string,
  productId: string,
  collections: readonly CollectionLink[],
): Promise<CatalogCard[]> {
  const lists = await Promise.all(
    collections
      .slice(0, RELATED_COLLECTIONS)
      .map((c) => api.listCollectionListings(slug, c.handle, { per_page: RELATED_COUNT + 1 })),
  );
  const seen = new Set([`product:${productId}`]);
  const related: CatalogCard[] = [];
  for (const entry of lists.flatMap((list) => list.data)) {
    const key = `${entry.type}:${entry.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    related.push(entry.type === 'bundle' ? bundleCard(entry) : productCard(entry));
  }
  return related.slice(0, RELATED_COUNT);
}

/** The product page's data, or null when there is no such product (the page answers 404). */
export async function loadProduct(api: CatalogApi, { slug, id }: ProductParams): Promise<ProductPageData | null> {
  if (!isCatalogId(id)) return null;
  try {
    const [product, variants, memberOf] = await Promise.all([
      api.getProduct(slug, id),
      api.listProductVariants(slug, id),
      // A backend without collections (the call is ours) still serves the product page.
      api.listProductCollections(slug, id).catch((error: unknown) => {
        if (hasStatus(error, 404)) return { data: [] };
        throw error;
      }),
    ]);
    const a = product.data.attributes;
    const collections = memberOf.data.map(({ attributes: { handle, title } }) => ({ handle, title }));
    return {
      product: {
        id: product.data.id,
        name: a.name,
        description: a.description,
        price: a.price,
        available: a.available,
        optionNames: a.optionNames,
        gallery: orderGallery(a.images, a.default_e_commerce_image_id),
      },
      variants: variants.data.map(variantView),
      variantMeta: Object.fromEntries(
        variants.data.map((v) => [v.id, { sku: v.attributes.sku, imageIds: v.attributes.image_ids ?? [] }]),
      ),
      collections,
      related: await relatedItems(api, slug, product.data.id, collections),
    };
  } catch (error) {
    if (hasStatus(error, 404)) return null;
    throw error;
  }
}
