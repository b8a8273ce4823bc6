/** An order's standing after the console's refunds and fulfilment (docs/decisions/198-console-orders.md). */
import type { OrderPaymentStatus } from '../../lib/contract/answers.ts';
import type { OrderRefundRow, OrderRow } from '../db/schema.ts';

type Amounts = Pick<OrderRow, 'total_cents' | 'gift_cards_cents' | 'refunded_cents'>;

/** What the shopper paid in all: the card's part and the gift cards'. */
export const paidCents = (order: Amounts) => order.total_cents + order.gift_cards_cents;

/** What a refund may still give back: the paid amount less every refund, settled or still owed. */
export const refundableCents = (order: Amounts, refunds: readonly Pick<OrderRefundRow, 'amount_cents'>[]) =>
  paidCents(order) - refunds.reduce((sum, refund) => sum + refund.amount_cents, 0);

/** Paid, partly refunded, or refunded in full, by the refunds the provider confirmed (an order paid nothing stays `paid`). */
export function paymentStatus(order: Amounts): OrderPaymentStatus {
  if (order.refunded_cents <= 0) return 'paid';
  return order.refunded_cents >= paidCents(order) ? 'refunded' : 'partially_refunded';
}
