import {
  POLICY_KINDS,
  type Bundle,
  type BundleItem,
  type Collection,
  type CollectionLink,
  type Image,
  type Policy,
  type PolicyKind,
  type Product,
  type ProductVariant,
  type StoreInfo,
} from '../../lib/contract/answers.ts';
import { centsToDecimal } from '../../lib/money.ts';
import type { StoreRow } from '../db/schema.ts';

// The one boundary where database rows become contract types (src/lib/contract/answers.ts).

export type ImageRow = {
  id: number;
  product_id: number;
  url: string;
  alt: string;
};

export type VariantRow = {
  id: number;
  product_id: number;
  sku: string;
  name: string;
  options: Record<string, string>;
  price_cents: number;
  stock: number;
  /** Its own images, in gallery order (docs/decisions/193-variant-images.md). */
  image_ids: number[];
};

/** What a product's answer needs of each of its variants: its price and whether it is in stock. */
export type VariantPrice = Pick<VariantRow, 'price_cents' | 'stock'>;

export type ProductRow = {
  id: number;
  name: string;
  description_html: string;
  featured: boolean;
  option_names: string[];
  default_image_id: number | null;
};

export type BundleRow = {
  id: number;
  name: string;
  description_html: string;
  featured: boolean;
};

export type BundleItemRow = {
  id: number;
  bundle_id: number;
  quantity: number;
  product_variant_id: number;
  product_id: number;
  product_name: string;
  variant_name: string;
  price_cents: number;
  stock: number;
  default_image_id: number | null;
};

export function reshapeImage(row: ImageRow): Image {
  // An upload nobody described yet has no alt text (flagged in the console, ADR 201): the answer leaves it
  // out, so the pages name the product instead of marking the picture decorative.
  return { id: String(row.id), url: row.url, ...(row.alt === '' ? {} : { alt: row.alt }) };
}

export type CollectionRow = { id: number; handle: string; title: string; description: string | null };

export function reshapeCollection(row: CollectionRow): Collection {
  return {
    id: String(row.id),
    type: 'collection',
    attributes: { handle: row.handle, title: row.title, description: row.description },
  };
}

export function reshapeStore(
  row: StoreRow,
  allowedListsPresent: boolean,
  collections: readonly CollectionRow[],
): StoreInfo {
  return {
    data: {
      id: String(row.id),
      type: 'store',
      attributes: {
        title: row.title,
        slug: row.slug,
        faviconImage: row.favicon_url,
        heroImage: row.hero_image_url,
        allowedListsPresent,
        description: row.description,
        customDomain: row.custom_domain,
        lowStockThreshold: row.low_stock_threshold,
        policies: POLICY_KINDS.filter((kind) => row.policies[kind]),
        contactEmail: row.contact_email,
        collections: collections.map((c): CollectionLink => ({ handle: c.handle, title: c.title })),
      },
    },
  };
}

/** What each policy page is called. */
export const POLICY_TITLES: Readonly<Record<PolicyKind, string>> = {
  shipping: 'Shipping policy',
  returns: 'Returns and refunds',
  privacy: 'Privacy policy',
  terms: 'Terms of service',
};

export function reshapePolicy(kind: PolicyKind, bodyHtml: string): Policy {
  return { data: { id: kind, type: 'policy', attributes: { kind, title: POLICY_TITLES[kind], bodyHtml } } };
}

/** The image a product shows first: its default, else its first. */
export function defaultImage(images: readonly ImageRow[], defaultId: number | null): ImageRow | null {
  return images.find((i) => i.id === defaultId) ?? images[0] ?? null;
}

export function reshapeProduct(
  row: ProductRow,
  images: readonly ImageRow[],
  variants: readonly VariantPrice[],
): Product {
  const available = variants.filter((v) => v.stock > 0);
  const priced = available.length > 0 ? available : variants;
  const minPrice = priced.length > 0 ? Math.min(...priced.map((v) => v.price_cents)) : 0;
  return {
    id: String(row.id),
    type: 'product',
    attributes: {
      name: row.name,
      description: row.description_html,
      price: centsToDecimal(minPrice),
      images: images.map(reshapeImage),
      default_e_commerce_image_id: defaultImage(images, row.default_image_id)
        ? String(defaultImage(images, row.default_image_id)!.id)
        : null,
      available: available.length > 0,
      featured: row.featured,
      optionNames: variants.length > 1 ? row.option_names : [],
    },
  };
}

export function reshapeVariant(row: VariantRow): ProductVariant {
  return {
    id: String(row.id),
    type: 'product_variant',
    attributes: {
      product_id: String(row.product_id),
      name: row.name,
      sku: row.sku,
      options: row.options,
      price: centsToDecimal(row.price_cents),
      stock: row.stock,
      available: row.stock > 0,
      image_ids: row.image_ids.map(String),
    },
  };
}

/** Bundle images are its items' default product images, in item order, without repeats. */
export function bundleImages(items: readonly BundleItemRow[], imagesByProduct: Map<number, ImageRow[]>): Image[] {
  const seen = new Set<number>();
  const images: Image[] = [];
  for (const item of items) {
    const image = defaultImage(imagesByProduct.get(item.product_id) ?? [], item.default_image_id);
    if (image && !seen.has(image.id)) {
      seen.add(image.id);
      images.push(reshapeImage(image));
    }
  }
  return images;
}

export function reshapeBundle(
  row: BundleRow,
  items: readonly BundleItemRow[],
  imagesByProduct: Map<number, ImageRow[]>,
): Bundle {
  const images = bundleImages(items, imagesByProduct);
  return {
    id: String(row.id),
    type: 'bundle',
    attributes: {
      name: row.name,
      description: row.description_html,
      price: centsToDecimal(items.reduce((sum, i) => sum + i.price_cents * i.quantity, 0)),
      images,
      default_e_commerce_image_id: images[0]?.id ?? null,
      available: items.length > 0 && items.every((i) => i.stock >= i.quantity),
      featured: row.featured,
    },
  };
}

export function reshapeBundleItem(row: BundleItemRow, imagesByProduct: Map<number, ImageRow[]>): BundleItem {
  const images = imagesByProduct.get(row.product_id) ?? [];
  const first = defaultImage(images, row.default_image_id);
  return {
    id: String(row.id),
    type: 'bundle_item',
    attributes: {
      bundle_id: String(row.bundle_id),
      product_id: String(row.product_id),
      product_variant_id: String(row.product_variant_id),
      product_name: row.product_name,
      variant_name: row.variant_name,
      quantity: row.quantity,
      price: centsToDecimal(row.price_cents),
      images: images.map(reshapeImage),
      default_e_commerce_image_id: first ? String(first.id) : null,
    },
  };
}
