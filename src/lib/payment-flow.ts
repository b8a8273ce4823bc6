/**
 * The checkout state machine (design.md, Checkout): `cart/checkout` for a payment intent
 * (gettingPaymentIntent) → the provider confirms the card payment (chargingCard) →
 * `cart/finalize` (finalizingOrder) → the order. The API calls and the payment provider are
 * injected, so the same machine runs against Stripe.js, the local stand-in and test stubs.
 */
import type { CheckoutAnswer, FinalizePayload, Order } from './api-types.ts';
import type { ProgressFlag } from './checkout-rules.ts';

/** Stripe's billing_details shape. */
export interface BillingDetails {
  name: string;
  email: string;
  phone?: string;
  address?: { line1: string; line2: string; city: string; state: string; postal_code: string; country: string };
}

/** The one call of the Stripe.js interface the flow needs (Stripe.js and test-stripe.ts both have it). */
export interface PaymentProvider {
  confirmCardPayment(
    clientSecret: string,
    data: { payment_method: { card: unknown; billing_details: BillingDetails } },
  ): Promise<{ paymentIntent?: { id: string; status: string }; error?: { message?: string } }>;
}

export interface PaymentFlowApi {
  checkout(): Promise<CheckoutAnswer>;
  finalize(payload: FinalizePayload): Promise<Order>;
}

export interface PaymentFlowDeps {
  api: PaymentFlowApi;
  /** Null until Stripe.js (or the stand-in) has loaded. */
  provider: () => PaymentProvider | null;
  /** Mirrors progress into the spec §3 flags ($checkout). */
  onProgress: (flag: ProgressFlag, on: boolean) => void;
}

export interface PlaceOrderRequest {
  /** The card element (Stripe's CardNumberElement instance); null when gift cards cover the total. */
  card: unknown;
  billing: BillingDetails;
}

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

export interface PaymentFlow {
  placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderOutcome>;
  readonly state: PaymentFlowState;
}

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

  async function run(request: PlaceOrderRequest): Promise<PlaceOrderOutcome> {
    if (chargedIntentId) {
      const paymentIntentId = chargedIntentId;
      const order = await step('finalizingOrder', () => deps.api.finalize({ payment_intent_id: paymentIntentId }));
      return { kind: 'ordered', order };
    }
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
    if (!request.card || !provider) return { kind: 'needs-card' };
    const result = await step('chargingCard', () =>
      provider.confirmCardPayment(intent.clientSecret, {
        payment_method: { card: request.card, billing_details: request.billing },
      }),
    );
    if (result.error || !result.paymentIntent) {
      return { kind: 'declined', message: result.error?.message ?? 'Your card was declined.' };
    }
    if (!CHARGED.has(result.paymentIntent.status)) {
      return { kind: 'declined', message: 'Your payment could not be completed. Please try again.' };
    }
    chargedIntentId = result.paymentIntent.id;
    const paymentIntentId = chargedIntentId;
    const order = await step('finalizingOrder', () => deps.api.finalize({ payment_intent_id: paymentIntentId }));
    chargedIntentId = null;
    return { kind: 'ordered', order };
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
