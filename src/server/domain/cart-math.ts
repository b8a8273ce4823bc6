/**
 * Cart arithmetic in integer cents: pure functions over plain data, so they are property-tested
 * (tests/unit/cart-math.test.ts) and used identically by the cart answer, checkout and finalize.
 */

export type PricingRule = {
  /** Tax rate in basis points (825 = 8.25 %). */
  taxRateBps: number;
  shippingFlatCents: number;
  /** Shipping is free when the subtotal reaches this; null = never free. */
  freeShippingThresholdCents: number | null;
};

export type PricedLine = {
  unitPriceCents: number;
  quantity: number;
  bundleId: number | null;
  bundleQuantity: number | null;
};

export type CardBalance = {
  id: string;
  code: string;
  balanceCents: number;
};

export type CardAmount = {
  id: string;
  code: string;
  amountCents: number;
};

export type Totals = {
  subtotalCents: number;
  taxCents: number;
  shippingCents: number;
  giftCards: CardAmount[];
  giftCardsCents: number;
  totalCents: number;
};

/** Tax on the subtotal, rounded half up to the cent. */
export function taxFor(subtotalCents: number, taxRateBps: number): number {
  return Math.floor((subtotalCents * taxRateBps + 5_000) / 10_000);
}

/** Flat shipping, free at or above the threshold, nothing for an empty cart. */
export function shippingFor(subtotalCents: number, hasLines: boolean, rule: PricingRule): number {
  if (!hasLines) return 0;
  if (rule.freeShippingThresholdCents !== null && subtotalCents >= rule.freeShippingThresholdCents) return 0;
  return rule.shippingFlatCents;
}

/** Gift cards in the order applied: each takes at most its balance and at most what is still owed. */
export function allocateGiftCards(dueCents: number, cards: readonly CardBalance[]): CardAmount[] {
  let remaining = Math.max(0, dueCents);
  return cards.map((card) => {
    const amountCents = Math.max(0, Math.min(card.balanceCents, remaining));
    remaining -= amountCents;
    return { id: card.id, code: card.code, amountCents };
  });
}

/** total = subTotal + tax + shippingFee − gift cards, never below zero. */
export function computeTotals(lines: readonly PricedLine[], rule: PricingRule, cards: readonly CardBalance[]): Totals {
  const subtotalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  const taxCents = taxFor(subtotalCents, rule.taxRateBps);
  const shippingCents = shippingFor(subtotalCents, lines.length > 0, rule);
  const due = subtotalCents + taxCents + shippingCents;
  const giftCards = allocateGiftCards(due, cards);
  const giftCardsCents = giftCards.reduce((sum, card) => sum + card.amountCents, 0);
  return { subtotalCents, taxCents, shippingCents, giftCards, giftCardsCents, totalCents: due - giftCardsCents };
}

/** Units a shopper sees: each product line's quantity, and each bundle once per bundle quantity. */
export function countCartUnits(lines: readonly Pick<PricedLine, 'quantity' | 'bundleId' | 'bundleQuantity'>[]): number {
  const bundles = new Map<number, number>();
  let units = 0;
  for (const line of lines) {
    if (line.bundleId === null) units += line.quantity;
    else bundles.set(line.bundleId, line.bundleQuantity ?? 1);
  }
  for (const quantity of bundles.values()) units += quantity;
  return units;
}

export type BundleItemSpec = {
  productVariantId: number;
  quantity: number;
};

/** The cart lines one bundle becomes: every item × the bundle quantity, all sharing the bundle id. */
export function bundleLines(bundleId: number, items: readonly BundleItemSpec[], bundleQuantity: number) {
  return items.map((item) => ({
    productVariantId: item.productVariantId,
    bundleId,
    bundleQuantity,
    quantity: item.quantity * bundleQuantity,
  }));
}
