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
  $addressErrors,
  $addressMessage,
  $addressSaved,
  $attempted,
  $cardName,
  $checkout,
  $checkoutReady,
  $payError,
  $placedOrder,
  $savedAddress,
  changeAddress,
  placeOrder,
  recordAddressValidity,
  refusePlaceOrder,
  saveAddress,
  setCardFlag,
  startCheckout,
  startFromCart,
} = checkoutStore;
const { setCart } = await import('../../../src/stores/cart.ts');

const paidOrder = { orderDetails: { id: '7d1f0c9e-0000-4000-8000-000000000001' } } as Order;
const card = { elementType: 'cardNumber' } as unknown as StripeCardNumberElement;

/** Every field reports valid, as the form's controls do once the address is complete. */
function allFieldsValid() {
  for (const field of ADDRESS_FIELDS) recordAddressValidity(field, { valid: true, missing: false });
}

/** The page as a shopper leaves it before Place order: the cart priced for a valid address, the card complete. */
function readyToPlace(cart: Cart) {
  const priced = { ...cart, address: adaAddress };
  setCart(priced);
  startFromCart(priced);
  allFieldsValid();
  for (const flag of ['cardNumber', 'cardExpiry', 'cardCvc', 'cardName'] as const) setCardFlag(flag, true);
}

/** Types the whole of Ada's address into an empty form, each field reporting itself valid. */
function typeAdaAddress() {
  for (const [field, value] of Object.entries(adaAddress)) changeAddress(field as keyof Address, value);
  allFieldsValid();
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

  test('a cart with an address (a second visit) starts from it, saved', () => {
    startFromCart(returningCart);
    expect($address.get()).toEqual(adaAddress);
    expect($addressSaved.get()).toBe(true);
  });

  test('only the first cart starts the form: a later answer does not overwrite what is typed', () => {
    startFromCart(kitchenSink);
    changeAddress('city', 'Shelbyville');
    startFromCart(returningCart);
    expect($address.get().city).toBe('Shelbyville');
  });

  test("the email is asked once: the contact email's validity is the card's email flag (spec §3)", () => {
    recordAddressValidity('email', { valid: true, missing: false });
    expect($checkout.get().cardEmail).toBe(true);
    recordAddressValidity('email', { valid: false, missing: false });
    expect($checkout.get().cardEmail).toBe(false);
  });

  test('changing a saved address unsaves it; only surrounding spaces do not', () => {
    startFromCart(returningCart);
    changeAddress('zip', ' 62701 ');
    expect($addressSaved.get()).toBe(true);
    changeAddress('zip', '62702');
    expect($addressSaved.get()).toBe(false);
  });

  test('an invalid address is not sent, and says nothing until Place order is pressed', async () => {
    recordAddressValidity('first_name', { valid: false, missing: true });
    await saveAddress('acme');
    expect(api.putAddress).not.toHaveBeenCalled();
    expect($attempted.get()).toBe(false);
    expect($addressMessage.get()).toBeNull();
  });

  test('saving a valid address puts it to the cart and takes the priced cart', async () => {
    startFromCart(kitchenSink);
    typeAdaAddress();
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

describe('the address saves itself', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    return () => vi.useRealTimers();
  });

  test('once valid, after typing pauses: one save for a burst of changes, none before the pause', async () => {
    startFromCart(kitchenSink);
    api.putAddress.mockImplementation((_slug, body) => Promise.resolve({ ...kitchenSink, address: body.cart }));
    typeAdaAddress();
    await vi.advanceTimersByTimeAsync(checkoutStore.ADDRESS_SAVE_DELAY_MS - 100);
    changeAddress('city', 'Shelbyville');
    await vi.advanceTimersByTimeAsync(checkoutStore.ADDRESS_SAVE_DELAY_MS - 100);
    expect(api.putAddress).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(api.putAddress).toHaveBeenCalledTimes(1);
    expect(api.putAddress).toHaveBeenCalledWith('acme', { cart: { ...adaAddress, city: 'Shelbyville' } });
    expect($addressSaved.get()).toBe(true);
    expect($cart.get()?.address?.city).toBe('Shelbyville');
  });

  test('a change while the save is on its way is saved after it', async () => {
    startFromCart(kitchenSink);
    let answer: (cart: Cart) => void = () => undefined;
    api.putAddress.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    api.putAddress.mockImplementation((_slug, body) => Promise.resolve({ ...kitchenSink, address: body.cart }));
    typeAdaAddress();
    await vi.advanceTimersByTimeAsync(checkoutStore.ADDRESS_SAVE_DELAY_MS);
    changeAddress('zip', '62702');
    answer({ ...kitchenSink, address: adaAddress });
    await vi.advanceTimersByTimeAsync(checkoutStore.ADDRESS_SAVE_DELAY_MS);
    expect(api.putAddress).toHaveBeenCalledTimes(2);
    expect(api.putAddress).toHaveBeenLastCalledWith('acme', { cart: { ...adaAddress, zip: '62702' } });
    expect($addressSaved.get()).toBe(true);
  });

  test('an address the server refused is not sent again until it changes', async () => {
    startFromCart(kitchenSink);
    api.putAddress.mockRejectedValue(
      new ApiError(422, { message: 'Zip is not valid.', errors: { zip: ['Zip is not valid.'] } }),
    );
    typeAdaAddress();
    await vi.advanceTimersByTimeAsync(checkoutStore.ADDRESS_SAVE_DELAY_MS * 5);
    expect(api.putAddress).toHaveBeenCalledTimes(1);
    changeAddress('zip', '62702');
    await vi.advanceTimersByTimeAsync(checkoutStore.ADDRESS_SAVE_DELAY_MS);
    expect(api.putAddress).toHaveBeenCalledTimes(2);
  });
});

describe('placing the order', () => {
  test('with a field missing it is refused: nothing is sent, every field says why, and the first one is named', async () => {
    readyToPlace(kitchenSink);
    recordAddressValidity('city', { valid: false, missing: true });
    setCardFlag('cardCvc', false);
    expect(refusePlaceOrder()).toBe('city');
    await placeOrder('acme', card);
    expect(api.checkout).not.toHaveBeenCalled();
    expect($attempted.get()).toBe(true);
    expect($addressMessage.get()).toBe('Form incomplete.');
  });

  test('an address not saved yet is saved first, and the order is paid only once it is priced', async () => {
    readyToPlace(coveredCart);
    changeAddress('city', 'Shelbyville');
    api.putAddress.mockResolvedValue({ ...coveredCart, address: { ...adaAddress, city: 'Shelbyville' } });
    api.checkout.mockResolvedValue({ paymentIntent: null, requiresPayment: false });
    api.finalize.mockResolvedValue(paidOrder);
    await placeOrder('acme', null);
    expect(api.putAddress).toHaveBeenCalledTimes(1);
    expect(api.putAddress.mock.invocationCallOrder[0]).toBeLessThan(api.checkout.mock.invocationCallOrder[0]!);
    expect($placedOrder.get()).toBe(paidOrder.orderDetails.id);
  });

  test('an address the server refuses stops the order before any payment', async () => {
    readyToPlace(kitchenSink);
    changeAddress('zip', '0');
    api.putAddress.mockRejectedValue(
      new ApiError(422, { message: 'Zip is not valid.', errors: { zip: ['Zip is not valid.'] } }),
    );
    await placeOrder('acme', card);
    expect(api.checkout).not.toHaveBeenCalled();
    expect($addressErrors.get().zip).toBe('Zip is not valid.');
  });

  test('a cart the gift cards cover is finalized without a card, and the cart empties', async () => {
    readyToPlace(coveredCart);
    api.checkout.mockResolvedValue({ paymentIntent: null, requiresPayment: false });
    api.finalize.mockResolvedValue(paidOrder);
    await placeOrder('acme', null);
    expect(api.finalize).toHaveBeenCalledWith('acme', {});
    expect($placedOrder.get()).toBe(paidOrder.orderDetails.id);
    expect($cart.get()?.cartItems).toEqual([]);
  });

  test('a total that needs a card, without one, asks for the card details and reads the cart again', async () => {
    readyToPlace(kitchenSink);
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
    readyToPlace(kitchenSink);
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
    expect($cardName.get()).toBe('');
    expect($payError.get()).toBeNull();
  });
});
