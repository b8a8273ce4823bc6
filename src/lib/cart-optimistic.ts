/**
 * What the cart looks like right after a change, before the API answers (optimistic updates).
 * The server's answer always replaces it; these only keep the screen honest meanwhile.
 */
import type { Cart, CartItem } from './contract/answers.ts';
import { bundleLinesOf } from './bundle-grouping.ts';
import { centsToDecimal, decimalToCents } from './money.ts';

function withLines(cart: Cart, cartItems: CartItem[]): Cart {
  const subTotal = cartItems.reduce((sum, item) => sum + decimalToCents(item.price), 0);
  const giftCards = cart.giftCards.reduce((sum, card) => sum + decimalToCents(card.amount), 0);
  const total = Math.max(0, subTotal + decimalToCents(cart.tax) + decimalToCents(cart.shippingFee) - giftCards);
  const bundles = new Map<string, number>();
  let units = 0;
  for (const item of cartItems) {
    if (item.bundle_id) bundles.set(item.bundle_id, item.bundle_details?.quantity ?? 1);
    else units += item.quantity;
  }
  for (const quantity of bundles.values()) units += quantity;
  return {
    ...cart,
    cartItems,
    subTotal: centsToDecimal(subTotal),
    total: centsToDecimal(total),
    cartLineItemsSize: units,
  };
}

/**
 * The cart with a line's quantity changed. On a bundle line `quantity` is the bundle's quantity
 * and every line of the bundle moves with it (each line holds item quantity × bundle quantity).
 */
export function withQuantity(cart: Cart, lineId: string, quantity: number): Cart {
  const lines = bundleLinesOf(cart.cartItems, lineId);
  const first = lines[0];
  if (!first) return cart;
  const ids = new Set(lines.map((line) => line.id));
  const oldBundleQuantity = first.bundle_details?.quantity ?? 1;
  const items = cart.cartItems.map((item) => {
    if (!ids.has(item.id)) return item;
    const lineQuantity = item.bundle_id ? (item.quantity / oldBundleQuantity) * quantity : quantity;
    return {
      ...item,
      quantity: lineQuantity,
      price: centsToDecimal(decimalToCents(item.unit_price) * lineQuantity),
      bundle_details: item.bundle_details ? { ...item.bundle_details, quantity } : null,
    };
  });
  return withLines(cart, items);
}

/** The cart without a line; removing any line of a bundle removes the whole bundle. */
export function withoutLine(cart: Cart, lineId: string): Cart {
  const ids = new Set(bundleLinesOf(cart.cartItems, lineId).map((line) => line.id));
  return withLines(
    cart,
    cart.cartItems.filter((item) => !ids.has(item.id)),
  );
}

/** The cart without an applied gift card. */
export function withoutGiftCard(cart: Cart, giftCardId: string): Cart {
  return withLines({ ...cart, giftCards: cart.giftCards.filter((card) => card.id !== giftCardId) }, cart.cartItems);
}
