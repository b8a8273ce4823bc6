// @vitest-environment happy-dom
import { Elements } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CardForm } from '../../../src/islands/checkout/CardForm.tsx';
import { createTestStripe } from '../../../src/lib/payments/test-stripe.ts';
import { $cardValid, $checkout, resetCheckout } from '../../../src/stores/checkout.ts';

function type(label: string, value: string) {
  const input = screen.getByLabelText<HTMLInputElement>(label);
  input.value = value;
  fireEvent.input(input);
}

beforeEach(() => resetCheckout());
afterEach(() => cleanup());

test('Stripe Elements components render the stand-in card inputs and fill the five card flags', async () => {
  const stripe = createTestStripe({
    apiBase: '/api/',
    now: () => new Date('2026-11-21T00:00:00Z'),
  }) as unknown as Stripe;
  render(
    <Elements stripe={stripe}>
      <CardForm name="Ada Lovelace" email="ada@example.com" onName={() => {}} onEmail={() => {}} disabled={false} />
    </Elements>,
  );
  // Validity of the name and email fields is reported from an effect.
  await act(async () => {});
  expect($checkout.get()).toMatchObject({ cardName: true, cardEmail: true, cardNumber: false });
  act(() => {
    type('Card number', '4242424242424242');
    type('Expiration date', '1230');
    type('CVC', '123');
  });
  expect($checkout.get()).toMatchObject({ cardNumber: true, cardExpiry: true, cardCvc: true });
  expect($cardValid.get()).toBe(true);
  expect(screen.getByLabelText<HTMLInputElement>('Expiration date').value).toBe('12 / 30');
});

test('an invalid card number shows the field error and clears its flag', async () => {
  const stripe = createTestStripe({ apiBase: '/api/' }) as unknown as Stripe;
  render(
    <Elements stripe={stripe}>
      <CardForm name="" email="" onName={() => {}} onEmail={() => {}} disabled={false} />
    </Elements>,
  );
  await act(async () => {});
  act(() => type('Card number', '4242424242424241'));
  expect(screen.getByRole('alert').textContent).toBe('Your card number is invalid.');
  expect($checkout.get().cardNumber).toBe(false);
  expect($cardValid.get()).toBe(false);
});
