/** An order's standing after the console's refunds and fulfilment (docs/decisions/198-console-orders.md). */
import type { OrderPaymentStatus } from '../../lib/contract/answers.ts';
import type { OrderRow } from '../db/schema.ts';

type Amounts = Pick<OrderRow, 'total_cents' | 'gift_cards_cents' | 'refunded_cents'>;

/** What the shopper paid in all: the card's part and the gift cards'. */
export const paidCents = (order: Amounts) => order.total_cents + order.gift_cards_cents;

/** What a refund may still give back. */
export const refundableCents = (order: Amounts) => paidCents(order) - order.refunded_cents;

/** Paid, partly refunded, or refunded in full (an order paid nothing stays `paid`). */
export function paymentStatus(order: Amounts): OrderPaymentStatus {
  if (order.refunded_cents <= 0) return 'paid';
  return order.refunded_cents >= paidCents(order) ? 'refunded' : 'partially_refunded';
}
