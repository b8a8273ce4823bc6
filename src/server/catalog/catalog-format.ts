import { z } from 'zod';
import { collectionFields } from '../../lib/contract/payloads.ts';
import {
  MAX_VARIANT_STOCK,
  optionName,
  optionValue,
  variantName,
  variantSku,
} from '../../lib/catalog/variant-rules.ts';
import { MAX_PRODUCT_IMAGES } from '../../lib/contract/limits.ts';
import { DEFAULT_LOW_STOCK_THRESHOLD } from '../../lib/catalog/stock-label.ts';
import { assetUrl, catalogMoney as money, storeSettingsFields as settings } from '../../lib/contract/store-settings.ts';
import { RESERVED_SLUGS, SLUG_PATTERN } from '../../lib/slug.ts';

const key = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lower-case letters, digits and hyphens');

/** What products and bundles both have: they are listed, searched and featured alike. */
const listingFields = {
  id: key,
  name: z.string().min(1).max(200),
  description_html: z.string().max(20_000).default(''),
  featured: z.boolean().default(false),
};

/** One product of a catalog; a streamed import (catalog-file.ts) checks them one at a time. */
const productSchema = z.object({
  ...listingFields,
  option_names: z.array(optionName).default([]),
  images: z
    .array(
      z.object({
        url: assetUrl,
        alt: z.string().max(200).default(''),
        /**
         * The variants this image shows, by their SKUs in this product; empty: the product as a whole.
         * A chosen variant's images lead its gallery (docs/decisions/193-variant-images.md).
         */
        variant_skus: z.array(z.string().min(1).max(64)).max(1000).default([]),
      }),
    )
    .max(MAX_PRODUCT_IMAGES)
    .default([]),
  /** Index into images of the default e-commerce image; 0 when omitted. */
  default_image: z.number().int().min(0).default(0),
  variants: z
    .array(
      z.object({
        sku: variantSku,
        name: variantName,
        options: z.record(optionName, optionValue).default({}),
        price: money,
        stock: z.number().int().min(0).max(MAX_VARIANT_STOCK),
      }),
    )
    .min(1),
});

export const catalogSchema = z.object({
  store: z.object({
    slug: z
      .string()
      .regex(SLUG_PATTERN, 'must be lower-case letters, digits and hyphens')
      .refine((slug) => !RESERVED_SLUGS.has(slug), 'is the name of one of the site’s own pages'),
    // The settings the console's form edits too, by the same rules (docs/decisions/203-console-store-settings.md).
    title: settings.title,
    description: z.string().max(2000).nullable().default(null),
    favicon_url: settings.favicon_url.default(null),
    /** The store front's hero picture; none: the store front shows no hero image. */
    hero_image_url: assetUrl.nullable().default(null),
    custom_domain: settings.custom_domain.default(null),
    restricted: z.boolean().default(false),
    tax_rate_bps: settings.tax_rate_bps.default(0),
    shipping_flat: settings.shipping_flat.default(0),
    free_shipping_threshold: settings.free_shipping_threshold.default(null),
    tax_rates: settings.tax_rates.default([]),
    shipping_zones: settings.shipping_zones.default([]),
    policies: settings.policies.default({}),
    contact_email: settings.contact_email.default(null),
    low_stock_threshold: settings.low_stock_threshold.default(DEFAULT_LOW_STOCK_THRESHOLD),
    allowed_recipients: z.array(z.object({ email: z.email().toLowerCase(), uuid: z.uuid() })).default([]),
    allowed_domain_tokens: z.array(z.string().min(8).max(200)).default([]),
  }),
  products: z.array(productSchema).default([]),
  bundles: z
    .array(
      z.object({
        ...listingFields,
        items: z
          .array(z.object({ product: key, sku: z.string().min(1), quantity: z.number().int().min(1).max(99) }))
          .min(1),
      }),
    )
    .default([]),
  /**
   * Collections in the order the store lists them; each names its products and bundles by their catalog
   * ids, in the collection's order. An item may be in several (docs/decisions/190-collections.md).
   */
  collections: z
    .array(
      z.object({
        // The console's rules for the same fields (docs/decisions/206-console-collections-and-bundles.md).
        ...collectionFields,
        description: collectionFields.description.nullable().default(null),
        items: z
          .array(z.union([z.strictObject({ product: key }), z.strictObject({ bundle: key })]))
          .max(10_000)
          .default([]),
      }),
    )
    .max(100)
    .default([]),
  gift_cards: z
    .array(
      z.object({
        code: z.string().min(4).max(64).toUpperCase(),
        balance: money,
        expires_at: z.iso.datetime().nullable().default(null),
      }),
    )
    .default([]),
});

type Issues = Pick<z.core.$RefinementCtx, 'addIssue'>;
type Path = (string | number)[];

/** A product's SKUs must be its own once each, and the SKUs its images name in it. */
function checkProduct(product: CatalogProduct, at: Path, ctx: Issues): void {
  const skus = new Set<string>();
  for (const [j, variant] of product.variants.entries()) {
    if (skus.has(variant.sku))
      ctx.addIssue({ code: 'custom', path: [...at, 'variants', j, 'sku'], message: 'is used by another variant' });
    skus.add(variant.sku);
  }
  for (const [j, image] of product.images.entries()) {
    for (const [k, sku] of image.variant_skus.entries()) {
      if (!skus.has(sku)) {
        const path = [...at, 'images', j, 'variant_skus', k];
        ctx.addIssue({ code: 'custom', path, message: `no variant with sku ${sku} in product ${product.id}` });
      }
    }
  }
}

/**
 * The issue of the product or bundle at `at` when one before it has its id (the import would keep only the
 * later, silently), else null; notes the id in `seen`.
 */
export function idUsedBefore(
  seen: Set<string>,
  id: string,
  kind: 'product' | 'bundle',
  at: Path,
): { path: Path; message: string } | null {
  if (seen.has(id)) return { path: [...at, 'id'], message: `is used by another ${kind}` };
  seen.add(id);
  return null;
}

/** What a catalog's collections name must exist in it (`products`: its product ids), once each. */
function checkCollections(catalog: CatalogHead, products: ReadonlySet<string>, ctx: Issues): void {
  const bundles = new Set<string>();
  for (const [i, bundle] of catalog.bundles.entries()) {
    const issue = idUsedBefore(bundles, bundle.id, 'bundle', ['bundles', i]);
    if (issue) ctx.addIssue({ code: 'custom', ...issue });
  }
  const handles = new Set<string>();
  for (const [i, collection] of catalog.collections.entries()) {
    if (handles.has(collection.handle)) {
      ctx.addIssue({ code: 'custom', path: ['collections', i, 'handle'], message: 'is used by another collection' });
    }
    handles.add(collection.handle);
    const members = new Set<string>();
    for (const [j, item] of collection.items.entries()) {
      const [kind, id, known] =
        'product' in item ? ['product', item.product, products] : ['bundle', item.bundle, bundles];
      const path = ['collections', i, 'items', j, kind];
      if (!known.has(id)) ctx.addIssue({ code: 'custom', path, message: `no ${kind} ${id} in this catalog` });
      if (members.has(`${kind}:${id}`)) ctx.addIssue({ code: 'custom', path, message: 'is in the collection already' });
      members.add(`${kind}:${id}`);
    }
  }
}

/** A whole catalog with what its fields cannot say alone, refused before anything is written. */
const checkedCatalogSchema = catalogSchema.superRefine((catalog, ctx) => {
  const ids = new Set<string>();
  for (const [i, product] of catalog.products.entries()) {
    checkProduct(product, ['products', i], ctx);
    const issue = idUsedBefore(ids, product.id, 'product', ['products', i]);
    if (issue) ctx.addIssue({ code: 'custom', ...issue });
  }
  checkCollections(catalog, ids, ctx);
});

export type CatalogInput = z.input<typeof catalogSchema>;
export type Catalog = z.output<typeof catalogSchema>;
export type CatalogProduct = z.output<typeof productSchema>;
/** A catalog without its products: what a streamed import holds in memory (catalog-file.ts). */
export type CatalogHead = Omit<Catalog, 'products'>;

/** At most this many bad fields are named. */
export const MAX_CATALOG_ISSUES = 10;

/** The error of a refused catalog, naming its first bad fields. */
export function invalidCatalog(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Error {
  const lines = issues.slice(0, MAX_CATALOG_ISSUES).map((i) => `  ${i.path.map(String).join('.')}: ${i.message}`);
  return new Error(`Invalid catalog:\n${lines.join('\n')}`);
}

/** Parses a catalog file's JSON, naming the first bad fields. */
export function parseCatalog(value: unknown): Catalog {
  const result = checkedCatalogSchema.safeParse(value);
  if (!result.success) throw invalidCatalog(result.error.issues);
  return result.data;
}

/** Checks the product at `at` (its place in the catalog, for the messages) on its own: its issues, or the product. */
export function parseCatalogProduct(
  value: unknown,
  at: Path,
): { product: CatalogProduct } | { issues: z.core.$ZodIssue[] } {
  const result = productSchema.superRefine((product, ctx) => checkProduct(product, [], ctx)).safeParse(value);
  if (result.success) return { product: result.data };
  return { issues: result.error.issues.map((issue) => ({ ...issue, path: [...at, ...issue.path] })) };
}

/** Parses a catalog without its products, whose ids (`products`) its collections may name. */
export function parseCatalogHead(value: unknown, products: ReadonlySet<string>): CatalogHead {
  const result = catalogSchema
    .omit({ products: true })
    .superRefine((head, ctx) => checkCollections(head, products, ctx))
    .safeParse(value);
  if (!result.success) throw invalidCatalog(result.error.issues);
  return result.data;
}
