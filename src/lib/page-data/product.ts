import type { Image } from '../contract/answers.ts';
import { orderGallery, variantView, type VariantView } from '../catalog/catalog-card.ts';
import { hasStatus, isCatalogId, type CatalogApi } from './catalog-api.ts';

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
};

/** The product page's data, or null when there is no such product (the page answers 404). */
export async function loadProduct(api: CatalogApi, { slug, id }: ProductParams): Promise<ProductPageData | null> {
  if (!isCatalogId(id)) return null;
  try {
    const [product, variants] = await Promise.all([api.getProduct(slug, id), api.listProductVariants(slug, id)]);
    const a = product.data.attributes;
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
    };
  } catch (error) {
    if (hasStatus(error, 404)) return null;
    throw error;
  }
}
