// @vitest-environment happy-dom
import { Elements } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CardForm } from '../../../src/islands/checkout/CardForm.tsx';
import { createTestStripe } from '../../../src/lib/payments/test-stripe.ts';
import {
  $attempted,
  $cardValid,
  $checkout,
  recordAddressValidity,
  resetCheckout,
} from '../../../src/stores/checkout.ts';

function type(label: string, value: string) {
  const input = screen.getByLabelText<HTMLInputElement>(label);
  input.value = value;
  fireEvent.input(input);
}

beforeEach(() => resetCheckout());
afterEach(() => cleanup());

test('Stripe Elements components render the stand-in card inputs and, with the contact email, fill the five card flags', async () => {
  const stripe = createTestStripe({
    apiBase: '/api/',
    now: () => new Date('2026-11-21T00:00:00Z'),
  }) as unknown as Stripe;
  render(
    <Elements stripe={stripe}>
      <CardForm name="Ada Lovelace" onName={() => {}} disabled={false} />
    </Elements>,
  );
  // Validity of the name field is reported from an effect; the email is the contact email's, asked once.
  await act(async () => {});
  expect(screen.queryByLabelText('Email')).toBeNull();
  expect($checkout.get()).toMatchObject({ cardName: true, cardEmail: false, cardNumber: false });
  recordAddressValidity('email', { valid: true, missing: false });
  expect($checkout.get().cardEmail).toBe(true);
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
      <CardForm name="" onName={() => {}} disabled={false} />
    </Elements>,
  );
  await act(async () => {});
  act(() => type('Card number', '4242424242424241'));
  expect(screen.getByRole('alert').textContent).toBe('Your card number is invalid.');
  expect($checkout.get().cardNumber).toBe(false);
  expect($cardValid.get()).toBe(false);
});

test('after a refused Place order an untouched card field says it is required, an unfinished one that it is incomplete', async () => {
  const stripe = createTestStripe({ apiBase: '/api/' }) as unknown as Stripe;
  render(
    <Elements stripe={stripe}>
      <CardForm name="" onName={() => {}} disabled={false} />
    </Elements>,
  );
  await act(async () => {});
  act(() => type('CVC', '1'));
  expect(screen.queryByText('Card number is required.')).toBeNull();
  act(() => $attempted.set(true));
  expect(screen.getByText('Card number is required.')).toBeTruthy();
  expect(screen.getByText('CVC is incomplete.')).toBeTruthy();
  expect(screen.getByText('Name on card is required.')).toBeTruthy();
});
