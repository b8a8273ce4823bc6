/**
 * What the product page says about a variant's stock, and how many the shopper may pick. Shared by
 * the add-to-cart island and the API's catalog format (the store's default threshold).
 */

/** A store says "Only N left" at or below this stock unless its catalog sets `low_stock_threshold`. */
export const DEFAULT_LOW_STOCK_THRESHOLD = 5;

export type StockLabel = {
  kind: 'in' | 'low' | 'out';
  text: string;
};

/** Sold out, only a few left (at or below the threshold; 0 never says so), or in stock. */
export function stockLabel(stock: number, threshold: number = DEFAULT_LOW_STOCK_THRESHOLD): StockLabel {
  if (stock <= 0) return { kind: 'out', text: 'Sold out' };
  if (stock <= threshold) return { kind: 'low', text: `Only ${stock} left` };
  return { kind: 'in', text: 'In stock' };
}

/** The largest quantity the picker offers: the stock, within the cart's per-line limit, at least 1. */
export function quantityLimit(stock: number, perLineLimit: number): number {
  return Math.max(1, Math.min(perLineLimit, stock));
}

/**
 * Whether a variant's stock going from `before` to `after` changes what a store's built pages show: whether
 * it can be bought (stock above 0), and whether each bundle holding it `quantity` at a time can. The counts
 * pages print ("Only 3 left", "Up to 12") are left out: the product page's script reads them from the API on
 * every view, and a build per sale would follow (docs/decisions/213-publishing-for-editors-and-shoppers.md).
 */
export function stockChangeShows(before: number, after: number, bundleQuantities: readonly number[] = []): boolean {
  const low = Math.min(before, after);
  const high = Math.max(before, after);
  return [1, ...bundleQuantities].some((needed) => low < needed && needed <= high);
}
