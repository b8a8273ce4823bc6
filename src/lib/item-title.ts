/**
 * How every list of items (cart, checkout, confirmation, order page, mail, the add-to-cart toast) names a
 * line. Apart from bundle-grouping.ts so the product page carries these two functions only (12 KB budget).
 */
import type { CartItem, ProductDetails } from './contract/answers.ts';

/** A line's product with its variant, "Classic Tee (S / Navy)"; a product's only variant ("Default") is not named. */
export function itemTitle(details: Pick<ProductDetails, 'name' | 'variant_name'>): string {
  const variant = details.variant_name;
  return variant && variant !== 'Default' ? `${details.name} (${variant})` : details.name;
}

/** "2 × Classic Cotton Tee (M / Navy)": how every list of items (cart, checkout, order page, mail) names a line. */
export function itemLabel(item: Pick<CartItem, 'quantity' | 'product_details'>): string {
  return `${item.quantity} × ${itemTitle(item.product_details)}`;
}
