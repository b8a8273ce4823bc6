import { describe, expect, test } from 'vitest';
import {
  canPlaceOrder,
  initialCheckoutFlags,
  isCardValid,
  isSending,
  type CheckoutFlags,
} from '../../../src/lib/checkout-rules.ts';

const allCardFlags: CheckoutFlags = {
  ...initialCheckoutFlags,
  cardNumber: true,
  cardExpiry: true,
  cardCvc: true,
  cardName: true,
  cardEmail: true,
};

describe('card-valid rule', () => {
  test('the card is valid when number, expiry, cvc, name and email are all valid', () => {
    expect(isCardValid(allCardFlags)).toBe(true);
  });

  test.each(['cardNumber', 'cardExpiry', 'cardCvc', 'cardName', 'cardEmail'] as const)(
    'the card is invalid while %s is not valid',
    (flag) => {
      expect(isCardValid({ ...allCardFlags, [flag]: false })).toBe(false);
    },
  );
});

describe('sending rule', () => {
  test('nothing in flight is not sending', () => {
    expect(isSending(initialCheckoutFlags)).toBe(false);
  });

  test.each(['gettingPaymentIntent', 'chargingCard', 'finalizingOrder'] as const)(
    'the order request is sending while %s',
    (flag) => {
      expect(isSending({ ...initialCheckoutFlags, [flag]: true })).toBe(true);
    },
  );
});

describe('place-order button', () => {
  const ready = { flags: allCardFlags, addressValid: true, requiresPayment: true, cartEmpty: false };

  test('is enabled with a valid address and a valid card', () => {
    expect(canPlaceOrder(ready)).toBe(true);
  });

  test('is disabled while the address form is invalid', () => {
    expect(canPlaceOrder({ ...ready, addressValid: false })).toBe(false);
  });

  test('is disabled while the card is incomplete', () => {
    expect(canPlaceOrder({ ...ready, flags: { ...allCardFlags, cardCvc: false } })).toBe(false);
  });

  test('is disabled while an order request is sending', () => {
    expect(canPlaceOrder({ ...ready, flags: { ...allCardFlags, chargingCard: true } })).toBe(false);
  });

  test('needs no card when gift cards cover the total', () => {
    expect(canPlaceOrder({ ...ready, flags: initialCheckoutFlags, requiresPayment: false })).toBe(true);
  });

  test('is disabled for an empty cart', () => {
    expect(canPlaceOrder({ ...ready, cartEmpty: true })).toBe(false);
  });
});
