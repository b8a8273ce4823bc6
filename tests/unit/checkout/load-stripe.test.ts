import { expect, test, vi } from 'vitest';

const loadStripe = vi.fn<(key: string) => Promise<unknown>>();
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe }));

const { loadPaymentProvider } = await import('../../../src/lib/payments/load-stripe.ts');
const { TestStripe } = await import('../../../src/lib/payments/test-stripe.ts');

test('without a publishable key the test-mode stand-in is used and Stripe.js is never loaded', async () => {
  const provider = await loadPaymentProvider({ publishableKey: undefined, apiBase: '/api/' });
  expect(provider).toBeInstanceOf(TestStripe);
  expect(loadStripe).not.toHaveBeenCalled();
});

test('with a publishable key real Stripe.js is loaded', async () => {
  const stripe = { elements: () => ({}) };
  loadStripe.mockResolvedValueOnce(stripe);
  expect(await loadPaymentProvider({ publishableKey: 'pk_test_123', apiBase: '/api/' })).toBe(stripe);
  expect(loadStripe).toHaveBeenCalledWith('pk_test_123');
});

test('a Stripe.js load that hangs fails after the timeout instead of waiting forever', async () => {
  loadStripe.mockReturnValueOnce(new Promise(() => {}));
  await expect(loadPaymentProvider({ publishableKey: 'pk_test_123', apiBase: '/api/', timeoutMs: 20 })).rejects.toThrow(
    'Unable to load the card payment form',
  );
});
