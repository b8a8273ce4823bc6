/** How the console names an order's standing (docs/decisions/198-console-orders.md). */
import type { ConsoleOrderSummary } from '../../lib/contract/answers.ts';

export const PAYMENT_WORDS: Record<ConsoleOrderSummary['payment_status'], string> = {
  paid: 'Paid',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

export const FULFILMENT_WORDS: Record<ConsoleOrderSummary['fulfillment_status'], string> = {
  unfulfilled: 'Not fulfilled',
  fulfilled: 'Fulfilled',
};

/** A console date and time in the operator's own locale and zone. */
export const shownTime = (iso: string) => new Date(iso).toLocaleString();
