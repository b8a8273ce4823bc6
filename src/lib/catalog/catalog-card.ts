/**
 * The catalog's view of products and bundles: API resources become these at one boundary, so
 * pages, payloads and components carry only what they show.
 */
import type { Bundle, BundleItem, Image, Product, ProductVariant } from '../contract/answers.ts';

/** One tile of a product grid: a product or a bundle. */
export type CatalogCard = {
  kind: 'product' | 'bundle';
  id: string;
  name: string;
  /** Wire money string ("12.50"); for products the lowest available variant price. */
  price: string;
  /** The default image, else the first; null shows the 'No image available' placeholder. */
  image: Image | null;
  available: boolean;
};

/** Images with the default one (`default_e_commerce_image_id`) first, the rest in their order. */
export function orderGallery(images: readonly Image[], defaultImageId: string | null): Image[] {
  const index = defaultImageId === null ? -1 : images.findIndex((image) => image.id === defaultImageId);
  if (index <= 0) return [...images];
  return [images[index]!, ...images.slice(0, index), ...images.slice(index + 1)];
}

/**
 * A gallery with a chosen variant's own images first, in their order, then the others in theirs
 * (docs/decisions/193-variant-images.md).
 */
export function galleryForVariant(gallery: readonly Image[], variantImageIds: readonly string[]): Image[] {
  const own = new Set(variantImageIds);
  return [...gallery.filter((image) => own.has(image.id)), ...gallery.filter((image) => !own.has(image.id))];
}

/** The image a card or cart line shows. */
export function primaryImage(images: readonly Image[], defaultImageId: string | null): Image | null {
  return orderGallery(images, defaultImageId)[0] ?? null;
}

export function productCard(product: Product): CatalogCard {
  const a = product.attributes;
  return {
    kind: 'product',
    id: product.id,
    name: a.name,
    price: a.price,
    image: primaryImage(a.images, a.default_e_commerce_image_id),
    available: a.available,
  };
}

export function bundleCard(bundle: Bundle): CatalogCard {
  const a = bundle.attributes;
  return {
    kind: 'bundle',
    id: bundle.id,
    name: a.name,
    price: a.price,
    image: primaryImage(a.images, a.default_e_commerce_image_id),
    available: a.available,
  };
}

/** A variant as the product page and the add-to-cart island use it. */
export type VariantView = {
  id: string;
  name: string;
  options: Record<string, string>;
  price: string;
  available: boolean;
  /** Units in stock, for "Only N left" and the quantity picker's limit. */
  stock: number;
};

export function variantView(variant: ProductVariant): VariantView {
  const a = variant.attributes;
  return { id: variant.id, name: a.name, options: a.options, price: a.price, available: a.available, stock: a.stock };
}

/** A bundle item as the bundle page shows it. */
export type BundleItemView = {
  id: string;
  productId: string;
  variantId: string;
  productName: string;
  variantName: string;
  quantity: number;
  price: string;
  image: Image | null;
};

export function bundleItemView(item: BundleItem): BundleItemView {
  const a = item.attributes;
  return {
    id: item.id,
    productId: a.product_id,
    variantId: a.product_variant_id,
    productName: a.product_name,
    variantName: a.variant_name,
    quantity: a.quantity,
    price: a.price,
    image: primaryImage(a.images, a.default_e_commerce_image_id),
  };
}
