/**
 * What the shopper's order page says about the store's actions on an order (docs/decisions/198-console-orders.md):
 * paid, partly refunded or refunded (with the amount), and shipped with carrier and tracking number.
 */
import type { Order } from './contract/answers.ts';
import { formatCurrency } from './money.ts';

type Details = Order['orderDetails'];

/** "Paid", "Partly refunded: $5.00" or "Refunded: $27.64". */
export function orderStatusText(details: Pick<Details, 'status' | 'refunded'>): string {
  const refunded = formatCurrency(details.refunded ?? '0.00');
  if (details.status === 'refunded') return `Refunded: ${refunded}`;
  if (details.status === 'partially_refunded') return `Partly refunded: ${refunded}`;
  return 'Paid';
}

/** "Shipped with UPS, tracking number 1Z…" once fulfilled; "Not shipped yet" before. */
export function shippingText(details: Pick<Details, 'fulfillment'>): string {
  const shipped = details.fulfillment;
  return shipped ? `Shipped with ${shipped.carrier}, tracking number ${shipped.trackingNumber}` : 'Not shipped yet';
}
