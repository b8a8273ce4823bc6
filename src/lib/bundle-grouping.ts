/**
 * Cart lines → what the shopper sees (spec §3): lines sharing a bundle_id become one bundle
 * entry (its images, its items, a total summed from the item prices); every other line is a
 * product entry. Entries keep the order in which their first line appears in the cart.
 */
import type { CartItem, Image } from './contract/answers.ts';
import { centsToDecimal, decimalToCents } from './money.ts';

export type ProductEntry = {
  type: 'product';
  /** Stable React key and the id PATCH/DELETE use. */
  key: string;
  item: CartItem;
};

export type BundleEntry = {
  type: 'bundle';
  key: string;
  bundleId: string;
  name: string;
  /** How many of the bundle are in the cart. */
  quantity: number;
  images: Image[];
  items: CartItem[];
  /** Sum of the items' line prices, a two-decimal money string. */
  total: string;
};

export type CartEntry = ProductEntry | BundleEntry;

/** Groups cart lines into product and bundle entries (spec §3). */
export function groupCartItems(items: readonly CartItem[]): CartEntry[] {
  const entries: CartEntry[] = [];
  const bundles = new Map<string, BundleEntry>();
  for (const item of items) {
    if (!item.bundle_id) {
      entries.push({ type: 'product', key: item.id, item });
      continue;
    }
    let bundle = bundles.get(item.bundle_id);
    if (!bundle) {
      bundle = {
        type: 'bundle',
        key: `bundle-${item.bundle_id}`,
        bundleId: item.bundle_id,
        name: item.bundle_details?.name ?? item.product_details.name,
        quantity: item.bundle_details?.quantity ?? 1,
        images: item.bundle_details?.images ?? [],
        items: [],
        total: '0.00',
      };
      bundles.set(item.bundle_id, bundle);
      entries.push(bundle);
    }
    bundle.items.push(item);
    bundle.total = centsToDecimal(decimalToCents(bundle.total) + decimalToCents(item.price));
  }
  return entries;
}

/** The lines a bundle entry is made of, by any one of its lines' ids. */
export function bundleLinesOf(items: readonly CartItem[], lineId: string): CartItem[] {
  const line = items.find((item) => item.id === lineId);
  if (!line?.bundle_id) return line ? [line] : [];
  return items.filter((item) => item.bundle_id === line.bundle_id);
}
