// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';

// The cart never answers: the form stays in its loading state, which is enough to see the frame.
vi.mock('../../../src/lib/api-client/index.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  browserRequester: () => () => new Promise(() => {}),
}));
const { default: CheckoutForm } = await import('../../../src/islands/checkout/CheckoutForm.tsx');

afterEach(() => cleanup());

const BADGE = 'Test mode — no real payments';

test('when the built-in test processor takes payments, checkout shows the test-mode badge', () => {
  render(<CheckoutForm slug="acme" linkBase="/acme" />);
  expect(screen.getByText(BADGE)).toBeTruthy();
});

test('with real Stripe keys there is no test-mode badge', () => {
  render(<CheckoutForm slug="acme" linkBase="/acme" publishableKey="pk_live_0123456789" />);
  expect(screen.queryByText(BADGE)).toBeNull();
});
