import type { StripeCardNumberElement } from '@stripe/stripe-js';
import { describe, expect, test, vi } from 'vitest';
import type { CheckoutAnswer, Order, PaymentIntent } from '../../../src/lib/contract/answers.ts';
import { ApiError } from '../../../src/lib/api-error.ts';
import { createPaymentFlow, type PaymentFlowApi, type PaymentProvider } from '../../../src/lib/payment-flow.ts';
import type { ProgressFlag } from '../../../src/lib/checkout-rules.ts';
import { kitchenSink } from './fixtures/carts.ts';

const intent: PaymentIntent = {
  id: 'pi_1',
  clientSecret: 'pi_1_secret_abc',
  amount: '38.86',
  currency: 'usd',
  status: 'requires_payment_method',
  provider: 'test',
};
const order: Order = {
  orderDetails: {
    id: '7d1f0c9e-0000-4000-8000-000000000001',
    number: 'A-10001',
    createdAt: '2026-11-21T06:00:00Z',
    status: 'paid',
    storeSlug: 'acme',
    cartItems: kitchenSink.cartItems,
    cartLineItemsSize: 5,
    subTotal: '54.50',
    tax: '4.36',
    shippingFee: '5.00',
    giftCards: [],
    total: '38.86',
    address: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      address_line1: '1 Main St',
      address_line2: '',
      city: 'Springfield',
      country: 'US',
      state: 'IL',
      zip: '62701',
      phone: '+12175550100',
    },
  },
  paymentIntent: { ...intent, status: 'succeeded' },
};
// The flow only hands the card element to the provider: a marker object stands in for Stripe's.
const card = { elementType: 'cardNumber' } as unknown as StripeCardNumberElement;
const billing = { name: 'Ada Lovelace', email: 'ada@example.com' };

function setup(
  options: {
    answer?: CheckoutAnswer;
    confirm?: PaymentProvider['confirmCardPayment'];
    finalize?: PaymentFlowApi['finalize'];
  } = {},
) {
  const progress: [ProgressFlag, boolean][] = [];
  const api = {
    checkout: vi.fn(
      async (): Promise<CheckoutAnswer> => options.answer ?? { paymentIntent: intent, requiresPayment: true },
    ),
    finalize: vi.fn(options.finalize ?? (async () => order)),
  };
  const provider = {
    confirmCardPayment: vi.fn(
      options.confirm ?? (async () => ({ paymentIntent: { id: 'pi_1', status: 'succeeded' } })),
    ),
  };
  const flow = createPaymentFlow({
    api,
    provider: () => provider,
    onProgress: (flag, on) => progress.push([flag, on]),
  });
  return { flow, api, provider, progress };
}

describe('payment flow', () => {
  test('a paid card goes checkout → charge → finalize and gives the order', async () => {
    const { flow, api, provider, progress } = setup();
    const outcome = await flow.placeOrder({ card, billing });
    expect(outcome).toEqual({ kind: 'ordered', order });
    expect(provider.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_abc', {
      payment_method: { card, billing_details: billing },
    });
    expect(api.finalize).toHaveBeenCalledWith({ payment_intent_id: 'pi_1' });
    expect(progress).toEqual([
      ['gettingPaymentIntent', true],
      ['gettingPaymentIntent', false],
      ['chargingCard', true],
      ['chargingCard', false],
      ['finalizingOrder', true],
      ['finalizingOrder', false],
    ]);
    expect(flow.state).toBe('done');
  });

  test('a declined card gives the provider message, finalizes nothing and allows another try', async () => {
    const { flow, api } = setup({ confirm: async () => ({ error: { message: 'Your card was declined.' } }) });
    expect(await flow.placeOrder({ card, billing })).toEqual({ kind: 'declined', message: 'Your card was declined.' });
    expect(api.finalize).not.toHaveBeenCalled();
    expect(flow.state).toBe('idle');
  });

  test('when gift cards cover the total the order is finalized without a card', async () => {
    const { flow, api, provider } = setup({ answer: { paymentIntent: null, requiresPayment: false } });
    const outcome = await flow.placeOrder({ card: null, billing });
    expect(outcome.kind).toBe('ordered');
    expect(provider.confirmCardPayment).not.toHaveBeenCalled();
    expect(api.finalize).toHaveBeenCalledWith({});
  });

  test('a second press while the order is in flight is ignored', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { flow, api } = setup({
      confirm: async () => {
        await gate;
        return { paymentIntent: { id: 'pi_1', status: 'succeeded' } };
      },
    });
    const first = flow.placeOrder({ card, billing });
    const second = await flow.placeOrder({ card, billing });
    expect(second).toEqual({ kind: 'ignored' });
    release();
    expect((await first).kind).toBe('ordered');
    expect(api.checkout).toHaveBeenCalledTimes(1);
    expect(api.finalize).toHaveBeenCalledTimes(1);
  });

  test('a press after the order was placed is ignored', async () => {
    const { flow, api } = setup();
    await flow.placeOrder({ card, billing });
    expect(await flow.placeOrder({ card, billing })).toEqual({ kind: 'ignored' });
    expect(api.checkout).toHaveBeenCalledTimes(1);
  });

  test('after a charged card whose finalize failed, the retry finalizes the same intent without charging again', async () => {
    let failOnce = true;
    const { flow, api, provider } = setup({
      finalize: async () => {
        if (failOnce) {
          failOnce = false;
          throw new Error('network down');
        }
        return order;
      },
    });
    expect((await flow.placeOrder({ card, billing })).kind).toBe('failed');
    expect((await flow.placeOrder({ card, billing })).kind).toBe('ordered');
    expect(provider.confirmCardPayment).toHaveBeenCalledTimes(1);
    expect(api.finalize).toHaveBeenLastCalledWith({ payment_intent_id: 'pi_1' });
  });

  test('a payment the server refused to order and is refunding (409) is not finalized again: the next press checks out anew', async () => {
    const refused = new ApiError(409, {
      message:
        'Only 1 of Last Lantern left in stock. Your payment is being refunded; please review your cart and pay again.',
    });
    const { flow, api, provider } = setup({
      finalize: async () => {
        throw refused;
      },
    });
    const first = await flow.placeOrder({ card, billing });
    expect(first).toEqual({ kind: 'failed', error: refused });
    api.checkout.mockRejectedValueOnce(
      new ApiError(422, {
        message: 'Only 1 of Last Lantern left in stock.',
        errors: { quantity: ['Only 1 of Last Lantern left in stock.'] },
      }),
    );
    expect((await flow.placeOrder({ card, billing })).kind).toBe('failed');
    expect(api.checkout).toHaveBeenCalledTimes(2);
    expect(api.finalize).toHaveBeenCalledTimes(1);
    expect(provider.confirmCardPayment).toHaveBeenCalledTimes(1);
    expect(flow.state).toBe('idle');
  });

  test('an intent the server reports as already paid is finalized without charging the card again', async () => {
    const { flow, api, provider } = setup({
      answer: { paymentIntent: { ...intent, status: 'succeeded' }, requiresPayment: true },
    });
    expect((await flow.placeOrder({ card, billing })).kind).toBe('ordered');
    expect(provider.confirmCardPayment).not.toHaveBeenCalled();
    expect(api.finalize).toHaveBeenCalledWith({ payment_intent_id: 'pi_1' });
  });

  test('a failed payment-intent request turns every progress flag off again', async () => {
    const progress: [ProgressFlag, boolean][] = [];
    const flow = createPaymentFlow({
      api: {
        checkout: async () => {
          throw new Error('422');
        },
        finalize: async () => order,
      },
      provider: () => null,
      onProgress: (flag, on) => progress.push([flag, on]),
    });
    expect((await flow.placeOrder({ card, billing })).kind).toBe('failed');
    expect(progress).toEqual([
      ['gettingPaymentIntent', true],
      ['gettingPaymentIntent', false],
    ]);
  });

  test('a server that asks for a card the shopper was not shown gives needs-card', async () => {
    const { flow } = setup();
    expect(await flow.placeOrder({ card: null, billing })).toEqual({ kind: 'needs-card' });
  });
});
