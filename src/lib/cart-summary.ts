/**
 * The amounts rows under a cart, an order and the checkout (spec §3, §9): subtotal, tax,
 * shipping, one row per applied gift card (as a deduction) and the total. The server computes
 * every amount; this only decides what is shown and in what order.
 */
import type { GiftCard } from './contract/answers.ts';
import { formatCurrency } from './money.ts';

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
  /** Already formatted with formatCurrency; gift cards carry a leading minus sign. */
  value: string;
  kind: 'subtotal' | 'tax' | 'shipping' | 'gift-card' | 'total';
  giftCardId?: string;
};

/**
 * Rows of the summary. Before an address is saved (`withAddress` false, checkout only) tax and
 * shipping are left out — the server prices them from the address — and the total is an estimate.
 */
export function summaryRows(amounts: Amounts, options: { withAddress: boolean }): SummaryRow[] {
  const rows: SummaryRow[] = [
    { key: 'subtotal', label: 'Subtotal', value: formatCurrency(amounts.subTotal), kind: 'subtotal' },
  ];
  if (options.withAddress) {
    rows.push({ key: 'tax', label: 'Tax', value: formatCurrency(amounts.tax), kind: 'tax' });
    rows.push({ key: 'shipping', label: 'Shipping', value: formatCurrency(amounts.shippingFee), kind: 'shipping' });
  }
  for (const card of amounts.giftCards) {
    rows.push({
      key: `gift-card-${card.id}`,
      label: `Gift card ${card.code}`,
      value: `-${formatCurrency(card.amount)}`,
      kind: 'gift-card',
      giftCardId: card.id,
    });
  }
  rows.push({
    key: 'total',
    label: options.withAddress ? 'Total' : 'Estimated total',
    value: formatCurrency(amounts.total),
    kind: 'total',
  });
  return rows;
}
