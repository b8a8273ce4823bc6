/**
 * The checkout state machine (design.md, Checkout): `cart/checkout` for a payment intent
 * (gettingPaymentIntent) → the provider confirms the card payment (chargingCard) →
 * `cart/finalize` (finalizingOrder) → the order. The API calls and the payment provider are
 * injected, so the same machine runs against Stripe.js, the local stand-in and test stubs.
 */
import type { StripeCardNumberElement } from '@stripe/stripe-js';
import { isApiError } from './api-error.ts';
import type { CheckoutAnswer, Order } from './contract/answers.ts';
import type { FinalizePayload } from './contract/payloads.ts';
import type { ProgressFlag } from './checkout-rules.ts';

/** Stripe's billing_details shape. */
export type BillingDetails = {
  name: string;
  email: string;
  phone?: string;
  address?: { line1: string; line2: string; city: string; state: string; postal_code: string; country: string };
};

/**
 * The one call of the Stripe.js interface the flow needs, narrowed to what it sends and reads: a
 * `Stripe` object is one as it is typed (no cast), and so are test-stripe.ts and test stubs.
 */
export type PaymentProvider = {
  confirmCardPayment(
    clientSecret: string,
    data: { payment_method: { card: StripeCardNumberElement; billing_details: BillingDetails } },
  ): Promise<{ paymentIntent?: { id: string; status: string }; error?: { message?: string } }>;
};

export type PaymentFlowApi = {
  checkout(): Promise<CheckoutAnswer>;
  finalize(payload: FinalizePayload): Promise<Order>;
};

export type PaymentFlowDeps = {
  api: PaymentFlowApi;
  /** Null until Stripe.js (or the stand-in) has loaded. */
  provider: () => PaymentProvider | null;
  /** Mirrors progress into the spec §3 flags ($checkout). */
  onProgress: (flag: ProgressFlag, on: boolean) => void;
};

export type PlaceOrderRequest = {
  /** The card element (Stripe's CardNumberElement instance); null when gift cards cover the total. */
  card: StripeCardNumberElement | null;
  billing: BillingDetails;
};

export type PlaceOrderOutcome =
  | { kind: 'ordered'; order: Order }
  /** The provider refused the card; `message` is the provider's own text. The cart is untouched. */
  | { kind: 'declined'; message: string }
  /** The server wants a card payment but none was given (gift cards no longer cover the total). */
  | { kind: 'needs-card' }
  | { kind: 'failed'; error: unknown }
  /** A second press while an order is in flight (or already placed) does nothing. */
  | { kind: 'ignored' };

export type PaymentFlowState = 'idle' | ProgressFlag | 'done';

// Statuses after which the money is (or will be) taken; the server verifies the intent at finalize.
const CHARGED = new Set(['succeeded', 'processing', 'requires_capture']);

export type PaymentFlow = {
  placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderOutcome>;
  readonly state: PaymentFlowState;
};

/** Creates one checkout's state machine. */
export function createPaymentFlow(deps: PaymentFlowDeps): PaymentFlow {
  let state: PaymentFlowState = 'idle';
  // A charged intent whose finalize failed: the next try finalizes it instead of charging again.
  let chargedIntentId: string | null = null;

  async function step<T>(flag: ProgressFlag, run: () => Promise<T>): Promise<T> {
    state = flag;
    deps.onProgress(flag, true);
    try {
      return await run();
    } finally {
      deps.onProgress(flag, false);
    }
  }

  /**
   * Finalizes a charged intent. A 409 means the server could not order it (stock or a gift card went
   * to another order, the cart changed) and is refunding it: the next press starts a new checkout,
   * which names what is wrong or opens a new payment (and answers this intent again were it orderable).
   */
  async function finalizeCharged(paymentIntentId: string): Promise<Order> {
    chargedIntentId = paymentIntentId;
    try {
      const order = await step('finalizingOrder', () => deps.api.finalize({ payment_intent_id: paymentIntentId }));
      chargedIntentId = null;
      return order;
    } catch (error) {
      if (isApiError(error) && error.status === 409) chargedIntentId = null;
      throw error;
    }
  }

  async function run(request: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    if (chargedIntentId) return { kind: 'ordered', order: await finalizeCharged(chargedIntentId) };
    const answer = await step('gettingPaymentIntent', () => deps.api.checkout());
    if (!answer.requiresPayment || !answer.paymentIntent) {
      const order = await step('finalizingOrder', () => deps.api.finalize({}));
      return { kind: 'ordered', order };
    }
    const intent = answer.paymentIntent;
    // Paid before (finalize failed, or the page was reloaded after paying): finalize, never charge twice.
    if (intent.status === 'succeeded') {
      const order = await step('finalizingOrder', () => deps.api.finalize({ payment_intent_id: intent.id }));
      return { kind: 'ordered', order };
    }
    const provider = deps.provider();
    const { card } = request;
    if (!card || !provider) return { kind: 'needs-card' };
    const result = await step('chargingCard', () =>
      provider.confirmCardPayment(intent.clientSecret, {
        payment_method: { card, billing_details: request.billing },
      }),
    );
    if (result.error || !result.paymentIntent) {
      return { kind: 'declined', message: result.error?.message ?? 'Your card was declined.' };
    }
    if (!CHARGED.has(result.paymentIntent.status)) {
      return { kind: 'declined', message: 'Your payment could not be completed. Please try again.' };
    }
    return { kind: 'ordered', order: await finalizeCharged(result.paymentIntent.id) };
  }

  return {
    get state() {
      return state;
    },
    async placeOrder(request) {
      if (state !== 'idle') return { kind: 'ignored' };
      try {
        const outcome = await run(request);
        state = outcome.kind === 'ordered' ? 'done' : 'idle';
        return outcome;
      } catch (error) {
        state = 'idle';
        return { kind: 'failed', error };
      }
    },
  };
}
