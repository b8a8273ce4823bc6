import type { StripeCardNumberElement } from '@stripe/stripe-js';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import type { Address, Cart, CheckoutAnswer, Order } from '../../../src/lib/contract/answers.ts';
import { ApiError } from '../../../src/lib/api-error.ts';
import { ADDRESS_FIELDS } from '../../../src/lib/checkout-address.ts';
import { notificationFor } from '../../../src/lib/error-catalogue.ts';
import { adaAddress, coveredCart, kitchenSink, returningCart } from './fixtures/carts.ts';

const api = {
  getCart: vi.fn<(slug: string) => Promise<Cart>>(),
  putAddress: vi.fn<(slug: string, body: { cart: Address }) => Promise<Cart>>(),
  checkout: vi.fn<(slug: string) => Promise<CheckoutAnswer>>(),
  finalize: vi.fn<(slug: string, body: unknown) => Promise<Order>>(),
};
// The calls take the requester first; the stubs see what follows it. Mocked in their own files, which
// both the index and the boot path's direct imports read.
vi.mock('../../../src/lib/api-client/requester.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  browserRequester: () => vi.fn(),
}));
vi.mock('../../../src/lib/api-client/cart.ts', () => ({
  getCart: (_request: unknown, slug: string) => api.getCart(slug),
}));
vi.mock('../../../src/lib/api-client/cart-changes.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  putAddress: (_request: unknown, slug: string, body: { cart: Address }) => api.putAddress(slug, body),
}));
vi.mock('../../../src/lib/api-client/checkout.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  checkout: (_request: unknown, slug: string) => api.checkout(slug),
  finalize: (_request: unknown, slug: string, body: unknown) => api.finalize(slug, body),
}));

const checkoutStore = await import('../../../src/stores/checkout.ts');
const { $cart } = await import('../../../src/stores/cart.ts');
const { $notifications } = await import('../../../src/stores/notifications.ts');
const {
  $address,
  $addressAttempted,
  $addressErrors,
  $addressMessage,
  $addressSaved,
  $cardHolder,
  $checkoutReady,
  $payError,
  $placedOrder,
  $savedAddress,
  changeAddress,
  placeOrder,
  recordAddressValidity,
  saveAddress,
  startCheckout,
  startFromCart,
} = checkoutStore;

const paidOrder = { orderDetails: { id: '7d1f0c9e-0000-4000-8000-000000000001' } } as Order;
const card = { elementType: 'cardNumber' } as unknown as StripeCardNumberElement;

/** Every field reports valid, as the form's controls do once the address is complete. */
function allFieldsValid() {
  for (const field of ADDRESS_FIELDS) recordAddressValidity(field, { valid: true, missing: false });
}

beforeEach(async () => {
  vi.resetAllMocks();
  api.getCart.mockResolvedValue(kitchenSink);
  $notifications.set([]);
  await startCheckout('acme');
});

describe('the address form', () => {
  test('a cart without an address starts the form empty and unsaved', () => {
    startFromCart(kitchenSink);
    expect($checkoutReady.get()).toBe(true);
    expect($address.get().first_name).toBe('');
    expect($addressSaved.get()).toBe(false);
  });

  test('a cart with an address (a second visit) starts from it, saved, with the receipt email filled', () => {
    startFromCart(returningCart);
    expect($address.get()).toEqual(adaAddress);
    expect($addressSaved.get()).toBe(true);
    expect($cardHolder.get().email).toBe('ada@example.com');
  });

  test('only the first cart starts the form: a later answer does not overwrite what is typed', () => {
    startFromCart(kitchenSink);
    changeAddress('city', 'Shelbyville');
    startFromCart(returningCart);
    expect($address.get().city).toBe('Shelbyville');
  });

  test('the receipt email follows the contact email until the shopper types another one', () => {
    changeAddress('email', 'ada@example.com');
    expect($cardHolder.get().email).toBe('ada@example.com');
    checkoutStore.setCardEmail('receipts@example.com');
    changeAddress('email', 'lovelace@example.com');
    expect($cardHolder.get().email).toBe('receipts@example.com');
  });

  test('changing a saved address unsaves it; only surrounding spaces do not', () => {
    startFromCart(returningCart);
    changeAddress('zip', ' 62701 ');
    expect($addressSaved.get()).toBe(true);
    changeAddress('zip', '62702');
    expect($addressSaved.get()).toBe(false);
  });

  test('saving with a missing field sends nothing and shows the form message', async () => {
    recordAddressValidity('first_name', { valid: false, missing: true });
    await saveAddress('acme');
    expect(api.putAddress).not.toHaveBeenCalled();
    expect($addressAttempted.get()).toBe(true);
    expect($addressMessage.get()).toBe('Form incomplete.');
  });

  test('saving a valid address puts it to the cart and takes the priced cart', async () => {
    startFromCart(kitchenSink);
    for (const [field, value] of Object.entries(adaAddress)) changeAddress(field as keyof Address, value);
    allFieldsValid();
    const priced = { ...kitchenSink, tax: '4.50', address: adaAddress };
    api.putAddress.mockResolvedValue(priced);
    await saveAddress('acme');
    expect(api.putAddress).toHaveBeenCalledWith('acme', { cart: adaAddress });
    expect($savedAddress.get()).toEqual(adaAddress);
    expect($addressSaved.get()).toBe(true);
    expect($cart.get()).toBe(priced);
  });

  test("a 422 to the save shows the server's message on its field until that field changes", async () => {
    allFieldsValid();
    api.putAddress.mockRejectedValue(
      new ApiError(422, {
        message: 'Validation failed',
        errors: { 'cart.zip': ['Zip must be at most 20 characters.'] },
      }),
    );
    await saveAddress('acme');
    expect($addressErrors.get()).toEqual({ zip: 'Zip must be at most 20 characters.' });
    expect($notifications.get()).toHaveLength(1);
    changeAddress('zip', '62701');
    expect($addressErrors.get().zip).toBeUndefined();
  });
});

describe('placing the order', () => {
  test('a cart the gift cards cover is finalized without a card, and the cart empties', async () => {
    startFromCart(coveredCart);
    api.checkout.mockResolvedValue({ paymentIntent: null, requiresPayment: false });
    api.finalize.mockResolvedValue(paidOrder);
    await placeOrder('acme', null);
    expect(api.finalize).toHaveBeenCalledWith('acme', {});
    expect($placedOrder.get()).toBe(paidOrder.orderDetails.id);
    expect($cart.get()?.cartItems).toEqual([]);
  });

  test('a total that needs a card, without one, asks for the card details and reads the cart again', async () => {
    api.checkout.mockResolvedValue({
      paymentIntent: {
        id: 'pi_1',
        clientSecret: 'pi_1_secret_abc',
        amount: '38.86',
        currency: 'usd',
        status: 'requires_payment_method',
        provider: 'test',
      },
      requiresPayment: true,
    });
    await placeOrder('acme', card);
    expect($payError.get()).toBe('Please enter your card details.');
    expect($placedOrder.get()).toBeNull();
    expect(api.getCart).toHaveBeenCalledTimes(2);
  });

  test("a failed request shows the error catalogue's message and reads the cart again", async () => {
    const refusal = new ApiError(422, { message: 'Only 1 left in stock of Mug.' });
    api.checkout.mockRejectedValue(refusal);
    await placeOrder('acme', null);
    expect($payError.get()).toBe(notificationFor(refusal).message);
    expect($notifications.get()).toHaveLength(1);
    expect(api.getCart).toHaveBeenCalledTimes(2);
  });

  test('a fresh checkout forgets the last one: nothing entered, nothing placed', async () => {
    startFromCart(returningCart);
    checkoutStore.setCardName('Ada Lovelace');
    await startCheckout('acme');
    expect($checkoutReady.get()).toBe(false);
    expect($address.get().first_name).toBe('');
    expect($cardHolder.get()).toEqual({ name: '', email: '' });
    expect($payError.get()).toBeNull();
  });
});
