import { sql } from 'kysely';

/**
 * The shop's filters (docs/decisions/192-listing-facets.md): in stock, a price range in cents, and
 * option values (`{ Size: ['M', 'L'] }`: values of one option OR'ed, options AND'ed). A bundle has
 * an option value when one of its items is a variant with it.
 */
export type ListingFilters = {
  inStock: boolean;
  priceMin: number | undefined;
  priceMax: number | undefined;
  options: Record<string, string[]>;
};

export const NO_FILTERS: ListingFilters = { inStock: false, priceMin: undefined, priceMax: undefined, options: {} };

/** Counts of the current list by facet, each ignoring its own selection (as Dawn and Saleor do). */
export type ListingFacets = {
  inStock: number;
  price: { min: number; max: number } | null;
  options: { name: string; values: { value: string; count: number }[] }[];
};

/** Whether a product is in stock: one of its variants is (counted by migration 0015's triggers). */
export const PRODUCT_IN_STOCK = sql<boolean>`(products.stocked_variants > 0)`;
/** Whether a bundle is in stock: it has items and every one is, in its quantity (as reshape.ts says). */
export const BUNDLE_IN_STOCK = sql<boolean>`(bundles.item_count > 0 and bundles.short_items = 0)`;
