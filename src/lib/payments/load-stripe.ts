/**
 * The payment provider for the card form: real Stripe.js when a publishable key is configured,
 * otherwise the local stand-in (test mode). Stripe.js comes from `@stripe/stripe-js/pure`, which
 * does not inject the script on import, and only when it is needed.
 */
import type { Stripe } from '@stripe/stripe-js';

// Offline, a hanging script request would leave loadStripe pending forever (ADR 040).
const LOAD_TIMEOUT_MS = 15_000;

export type LoadPaymentProviderOptions = {
  publishableKey: string | undefined;
  apiBase: string;
  timeoutMs?: number;
};

/** Resolves the Stripe object for `<Elements stripe={…}>`; rejects when Stripe.js cannot load in time. */
export async function loadPaymentProvider({
  publishableKey,
  apiBase,
  timeoutMs = LOAD_TIMEOUT_MS,
}: LoadPaymentProviderOptions): Promise<Stripe> {
  // react-stripe-js types <Elements stripe> as the whole Stripe object, of which it calls elements(),
  // createToken, createPaymentMethod and confirmCardPayment: the one place the stand-in is taken for it.
  // The stand-in is a chunk of its own: a page with real keys never downloads it (docs/decisions/195-lighter-checkout.md).
  if (!publishableKey) {
    const { createTestStripe } = await import('./test-stripe.ts');
    return createTestStripe({ apiBase }) as unknown as Stripe;
  }
  const { loadStripe } = await import('@stripe/stripe-js/pure');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Stripe.js did not load within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const stripe = await Promise.race([loadStripe(publishableKey), timeout]);
    if (!stripe) throw new Error('Stripe.js loaded without a Stripe object');
    return stripe;
  } catch (cause) {
    throw new Error('Unable to load the card payment form', { cause });
  } finally {
    clearTimeout(timer);
  }
}
