import Stripe from 'stripe';
import type { PaymentIntentStatus } from '../../lib/contract/answers.ts';
import {
  CARD_AMOUNT_LIMIT_CENTS,
  PaymentProviderError,
  type PaymentProvider,
  type ProviderIntent,
} from './provider.ts';

function reshape(intent: Stripe.PaymentIntent): ProviderIntent {
  const known: readonly string[] = ['succeeded', 'processing', 'canceled', 'requires_confirmation'];
  // Stripe's other states (requires_action, requires_capture…) mean "not paid yet" to a storefront.
  const status = (known.includes(intent.status) ? intent.status : 'requires_payment_method') as PaymentIntentStatus;
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    amountCents: intent.amount,
    currency: 'usd',
    status,
    cartId: intent.metadata.cart_id ?? null,
    provider: 'stripe',
  };
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new PaymentProviderError(`Stripe ${what} failed`, { cause: error });
  }
}

/**
 * Stripe PaymentIntents through the official SDK; every write carries an idempotency key. `endpoint`
 * points the SDK at another API host (a local fake in tests).
 */
export function createStripeProvider(
  secretKey: string,
  endpoint: Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> = {},
): PaymentProvider {
  const stripe = new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000, ...endpoint });
  return {
    name: 'stripe',
    maxAmountCents: CARD_AMOUNT_LIMIT_CENTS,

    createIntent: ({ amountCents, cartId, storeSlug, idempotencyKey }) =>
      call('create payment intent', async () =>
        reshape(
          await stripe.paymentIntents.create(
            {
              amount: amountCents,
              currency: 'usd',
              automatic_payment_methods: { enabled: true },
              metadata: { cart_id: cartId, store_slug: storeSlug },
            },
            { idempotencyKey },
          ),
        ),
      ),

    updateAmount: (id, amountCents, idempotencyKey) =>
      call('update payment intent', async () =>
        reshape(await stripe.paymentIntents.update(id, { amount: amountCents }, { idempotencyKey })),
      ),

    refundIntent: (id, idempotencyKey, amountCents) =>
      call('refund payment intent', async () => {
        await stripe.refunds.create(
          {
            payment_intent: id,
            reason: 'requested_by_customer',
            ...(amountCents === undefined ? {} : { amount: amountCents }),
          },
          { idempotencyKey },
        );
      }),

    async cancelIntent(id, idempotencyKey) {
      try {
        await stripe.paymentIntents.cancel(id, {}, { idempotencyKey });
      } catch (error) {
        // Already canceled or succeeded meanwhile: nothing left to cancel (finalize decides about a success).
        if ((error as { code?: string }).code === 'payment_intent_unexpected_state') return;
        throw new PaymentProviderError('Stripe cancel payment intent failed', { cause: error });
      }
    },

    async retrieveIntent(id) {
      try {
        return reshape(await stripe.paymentIntents.retrieve(id));
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return null;
        throw new PaymentProviderError('Stripe retrieve payment intent failed', { cause: error });
      }
    },
  };
}
