/**
 * The amounts rows under a cart, the checkout, an order and its email (spec §3, §9): subtotal,
 * shipping, tax, one row per applied gift card (as a deduction) and the total. The server computes
 * every amount; this only decides what is shown and in what order, so the rows always add up.
 */
import type { GiftCard } from './contract/answers.ts';
import { decimalToCents, formatCurrency } from './money.ts';

export type Amounts = {
  subTotal: string;
  tax: string;
  shippingFee: string;
  giftCards: GiftCard[];
  total: string;
};

export type SummaryRow = {
  key: string;
  label: string;
  /** Formatted for display: an amount, "Free", or why there is none yet; gift cards carry a minus sign. */
  value: string;
  kind: 'subtotal' | 'shipping' | 'tax' | 'gift-card' | 'total';
  giftCardId?: string;
};

/** What an amount that depends on the address reads before there is one. */
export const NOT_YET_PRICED = 'Calculated at checkout';

/**
 * Rows of the summary. `priced` is whether tax and shipping were priced for an address: before one
 * the server charges neither (docs/decisions/180-tax-and-shipping-by-destination.md), so they read
 * "Calculated at checkout" and the total shown is what is owed so far.
 */
export function summaryRows(amounts: Amounts, options: { priced: boolean }): SummaryRow[] {
  const priced = (value: string) => (options.priced ? value : NOT_YET_PRICED);
  const shipping = decimalToCents(amounts.shippingFee) === 0 ? 'Free' : formatCurrency(amounts.shippingFee);
  const rows: SummaryRow[] = [
    { key: 'subtotal', label: 'Subtotal', value: formatCurrency(amounts.subTotal), kind: 'subtotal' },
    { key: 'shipping', label: 'Shipping', value: priced(shipping), kind: 'shipping' },
    { key: 'tax', label: 'Tax', value: priced(formatCurrency(amounts.tax)), kind: 'tax' },
  ];
  for (const card of amounts.giftCards) {
    rows.push({
      key: `gift-card-${card.id}`,
      label: `Gift card ${card.code}`,
      value: `-${formatCurrency(card.amount)}`,
      kind: 'gift-card',
      giftCardId: card.id,
    });
  }
  rows.push({ key: 'total', label: 'Total', value: formatCurrency(amounts.total), kind: 'total' });
  return rows;
}

/** "Add $X more for free shipping" while the subtotal is under the threshold; nothing otherwise. */
export function freeShippingHint(subTotal: string, threshold: string | null): string | null {
  if (threshold === null) return null;
  const missing = decimalToCents(threshold) - decimalToCents(subTotal);
  return missing > 0 ? `Add ${formatCurrency(missing)} more for free shipping` : null;
}
