import { describe, expect, test } from 'vitest';
import { ADDRESS_FIELDS } from '../../../src/lib/checkout-address.ts';
import {
  firstInvalidField,
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

describe('the field a Place order is refused for', () => {
  const validAddress = Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, { valid: true }]));
  const ready = { flags: allCardFlags, addressValidity: validAddress, requiresPayment: true };

  test('none with a valid address and a valid card', () => {
    expect(firstInvalidField(ready)).toBeNull();
  });

  test("the first invalid address field in the page's order, before any card field", () => {
    const addressValidity = { ...validAddress, city: { valid: false }, zip: { valid: false } };
    expect(firstInvalidField({ ...ready, addressValidity, flags: initialCheckoutFlags })).toBe('city');
  });

  test('a field that has not reported yet counts as invalid', () => {
    expect(firstInvalidField({ ...ready, addressValidity: {} })).toBe('first_name');
  });

  test('then the first incomplete card field', () => {
    expect(firstInvalidField({ ...ready, flags: { ...allCardFlags, cardExpiry: false, cardName: false } })).toBe(
      'cardExpiry',
    );
  });

  test("the card's email flag has no field of its own: the contact email stands for it", () => {
    expect(firstInvalidField({ ...ready, flags: { ...allCardFlags, cardEmail: false } })).toBeNull();
  });

  test('no card field counts when gift cards cover the total', () => {
    expect(firstInvalidField({ ...ready, flags: initialCheckoutFlags, requiresPayment: false })).toBeNull();
  });
});
