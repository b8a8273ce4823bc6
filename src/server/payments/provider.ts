import type { PaymentIntentStatus } from '../../lib/contract/answers.ts';

/** A payment intent as the app sees it, whichever provider holds it. */
export type ProviderIntent = {
  id: string;
  clientSecret: string;
  amountCents: number;
  currency: 'usd';
  status: PaymentIntentStatus;
  /** The cart the intent was created for (metadata), null when the provider lost it. */
  cartId: string | null;
  provider: 'test' | 'stripe';
  /** When the payment succeeded, if the provider says (reconciliation waits until it is old enough). */
  succeededAt?: Date;
};

export type CreateIntentInput = {
  amountCents: number;
  cartId: string;
  storeSlug: string;
  /** Same key → same intent: a retried or concurrent checkout never opens a second payment. */
  idempotencyKey: string;
};

/**
 * The most one USD card payment may be: Stripe's limit of 99,999,999 in the smallest unit ($999,999.99),
 * which the test processor keeps too so that tests meet the same refusal.
 */
export const CARD_AMOUNT_LIMIT_CENTS = 99_999_999;

/** What checkout and finalize need from a card payment provider. */
export type PaymentProvider = {
  readonly name: 'test' | 'stripe';
  /** The largest amount one payment may be; checkout refuses a larger total before asking the provider. */
  readonly maxAmountCents: number;
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  updateAmount(id: string, amountCents: number, idempotencyKey: string): Promise<ProviderIntent>;
  retrieveIntent(id: string): Promise<ProviderIntent | null>;
  /**
   * Gives a succeeded payment back: `amountCents` of it, or without an amount all that is left. The key
   * makes a retried refund a no-op (docs/decisions/198-console-orders.md).
   */
  refundIntent(id: string, idempotencyKey: string, amountCents?: number): Promise<void>;
  /** Cancels an unpaid intent so it can no longer be charged. The key makes a retry a no-op. */
  cancelIntent(id: string, idempotencyKey: string): Promise<void>;
};

/** A provider call failed (network, timeout, provider error); answered as 502 with a clear message. */
export class PaymentProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentProviderError';
  }
}
