/**
 * The checkout page's state and actions. `$checkout` holds the flags of spec §3 and the rules read
 * from them: the card form sets the five validity flags, the payment flow (lib/payment-flow.ts)
 * the three progress flags. The rest is the address form (values, validity, what the cart has
 * saved), the card holder, the payment provider and the outcome of placing the order.
 */
import type { Stripe, StripeCardNumberElement } from '@stripe/stripe-js';
import { atom, computed, map } from 'nanostores';
import { browserRequester, checkout, finalize, publicApiBaseUrl, putAddress } from '../lib/api-client/index.ts';
import type { Address, Cart } from '../lib/contract/answers.ts';
import {
  ADDRESS_FIELDS,
  addressErrors,
  billingDetails,
  EMPTY_ADDRESS,
  sameAddress,
  type AddressField,
} from '../lib/checkout-address.ts';
import {
  initialCheckoutFlags,
  isCardValid,
  isSending,
  type CardFlag,
  type CheckoutFlags,
  type ProgressFlag,
} from '../lib/checkout-rules.ts';
import { notificationFor } from '../lib/error-catalogue.ts';
import { createPaymentFlow, type PaymentFlow } from '../lib/payment-flow.ts';
import { loadPaymentProvider } from '../lib/payments/load-stripe.ts';
import { formMessage, type FieldResult } from '../lib/validation/index.ts';
import { loadCart, resetCart, setCart } from './cart.ts';
import { notifyError } from './notifications.ts';

export const $checkout = map<CheckoutFlags>({ ...initialCheckoutFlags });

/** Card valid only when all five card flags are true (spec §4). */
export const $cardValid = computed($checkout, isCardValid);

/** The order request is 'sending' (spec §4): the pay button is locked and shows progress. */
export const $sending = computed($checkout, isSending);

/** Records whether one card field is valid. */
export function setCardFlag(flag: CardFlag, valid: boolean): void {
  if ($checkout.get()[flag] !== valid) $checkout.setKey(flag, valid);
}

/** Records a step of the order request starting or ending. */
export function setProgress(flag: ProgressFlag, on: boolean): void {
  $checkout.setKey(flag, on);
}

// ---------------------------------------------------------------- the address form

/** What the address form shows. */
export const $address = map<Address>({ ...EMPTY_ADDRESS });

/** The address the cart has saved; null until one is. */
export const $savedAddress = atom<Address | null>(null);

/** Each field's outcome as its control reports it (spec §5). */
export const $addressValidity = map<Partial<Record<AddressField, Pick<FieldResult, 'valid' | 'missing'>>>>({});

/** The server's messages (a 422 to the save) by field, until the field changes. */
export const $addressErrors = atom<Partial<Record<AddressField, string>>>({});

/** True after a save attempt: every field shows its message, and the form its own. */
export const $addressAttempted = atom(false);

export const $savingAddress = atom(false);

/**
 * True once the cart is known and the form may mount: fields that take only an initial value
 * (the phone) then start from the saved one.
 */
export const $checkoutReady = atom(false);

export const $addressValid = computed($addressValidity, (validity) =>
  ADDRESS_FIELDS.every((field) => validity[field]?.valid === true),
);

/** True when what is shown is what the cart has saved (tax and shipping are priced from it). */
export const $addressSaved = computed([$savedAddress, $address], sameAddress);

/** 'Form incomplete.' or 'Sorry, not all fields are filled out correctly.' after a save attempt (spec §5). */
export const $addressMessage = computed([$addressAttempted, $addressValidity], (attempted, validity) =>
  attempted ? formMessage(ADDRESS_FIELDS.map((field) => validity[field])) : null,
);

/** Starts the form from the cart once, when it first arrives: a cart with an address (a second visit) starts saved. */
export function startFromCart(cart: Cart): void {
  if ($checkoutReady.get()) return;
  $checkoutReady.set(true);
  if (!cart.address) return;
  $address.set(cart.address);
  $savedAddress.set(cart.address);
  $cardHolder.setKey('email', cart.address.email);
}

/** One field typed or chosen. */
export function changeAddress(field: AddressField, value: string): void {
  const address = $address.get();
  if (address[field] === value) return;
  // The receipt email follows the contact email until the shopper types another one.
  const cardEmail = $cardHolder.get().email;
  if (field === 'email' && (cardEmail === '' || cardEmail === address.email)) $cardHolder.setKey('email', value);
  $address.setKey(field, value);
  const errors = $addressErrors.get();
  if (errors[field]) $addressErrors.set({ ...errors, [field]: undefined });
}

/** A field's control reports its outcome. */
export function recordAddressValidity(
  field: AddressField,
  { valid, missing }: Pick<FieldResult, 'valid' | 'missing'>,
): void {
  const current = $addressValidity.get()[field];
  if (current?.valid !== valid || current.missing !== missing) $addressValidity.setKey(field, { valid, missing });
}

/** `PUT …/cart` with the address shown, when every field is valid; the answer prices tax and shipping. */
export async function saveAddress(slug: string): Promise<void> {
  $addressAttempted.set(true);
  if (!$addressValid.get() || $savingAddress.get()) return;
  $savingAddress.set(true);
  const snapshot = $address.get();
  try {
    setCart(await putAddress(browserRequester(), slug, { cart: snapshot }));
    $savedAddress.set(snapshot);
    $addressErrors.set({});
  } catch (error) {
    $addressErrors.set(addressErrors(error));
    notifyError(error);
  } finally {
    $savingAddress.set(false);
  }
}

// ---------------------------------------------------------------- the card and the order

/** 'Name on card' and the receipt 'Email'. */
export const $cardHolder = map({ name: '', email: '' });

export function setCardName(name: string): void {
  $cardHolder.setKey('name', name);
}

export function setCardEmail(email: string): void {
  $cardHolder.setKey('email', email);
}

/** Stripe.js, or the test-mode stand-in with the same surface (lib/payments/load-stripe.ts). */
export type ProviderState =
  { kind: 'none' } | { kind: 'loading' } | { kind: 'ready'; stripe: Stripe } | { kind: 'failed'; message: string };

export const $paymentProvider = atom<ProviderState>({ kind: 'none' });

/** A load started before the last reset must not land in the fresh checkout. */
let providerLoad = 0;

/** Loads the card form's provider once (it is needed only when the total needs a card). */
export function loadCardProvider(publishableKey: string | undefined): void {
  if ($paymentProvider.get().kind !== 'none') return;
  const load = ++providerLoad;
  $paymentProvider.set({ kind: 'loading' });
  loadPaymentProvider({ publishableKey, apiBase: publicApiBaseUrl() }).then(
    (stripe) => {
      if (load === providerLoad) $paymentProvider.set({ kind: 'ready', stripe });
    },
    (error: unknown) => {
      console.error(error);
      if (load === providerLoad)
        $paymentProvider.set({
          kind: 'failed',
          message: 'The card form could not be loaded. Please check your connection and reload the page.',
        });
    },
  );
}

/** Why the last order attempt did not go through, in the shopper's words. */
export const $payError = atom<string | null>(null);

/** The order's id once it is placed; the page then goes to its confirmation. */
export const $placedOrder = atom<string | null>(null);

let flow: PaymentFlow | null = null;

/** Back to nothing entered and nothing in flight (a fresh checkout page). */
export function resetCheckout(): void {
  $checkout.set({ ...initialCheckoutFlags });
  $address.set({ ...EMPTY_ADDRESS });
  $savedAddress.set(null);
  $addressValidity.set({});
  $addressErrors.set({});
  $addressAttempted.set(false);
  $savingAddress.set(false);
  $checkoutReady.set(false);
  $cardHolder.set({ name: '', email: '' });
  providerLoad++;
  $paymentProvider.set({ kind: 'none' });
  $payError.set(null);
  $placedOrder.set(null);
  flow = null;
}

/** Opens the checkout of this store: a fresh form, its payment flow and the current cart. */
export function startCheckout(slug: string): Promise<Cart | null> {
  resetCheckout();
  flow = createPaymentFlow({
    api: {
      checkout: () => checkout(browserRequester(), slug),
      finalize: (payload) => finalize(browserRequester(), slug, payload),
    },
    provider: () => {
      const provider = $paymentProvider.get();
      return provider.kind === 'ready' ? provider.stripe : null;
    },
    onProgress: setProgress,
  });
  return loadCart(slug);
}

/**
 * Places the order with the card element (null when gift cards cover the total): pays, then
 * finalizes (lib/payment-flow.ts). A refusal is kept in $payError and the cart read again.
 */
export async function placeOrder(slug: string, card: StripeCardNumberElement | null): Promise<void> {
  if (!flow) return;
  $payError.set(null);
  const outcome = await flow.placeOrder({ card, billing: billingDetails($address.get(), $cardHolder.get()) });
  switch (outcome.kind) {
    case 'ordered':
      $placedOrder.set(outcome.order.orderDetails.id);
      // The server emptied the cart; the header count follows before the next page loads.
      resetCart();
      break;
    case 'declined':
      $payError.set(outcome.message);
      break;
    case 'needs-card':
      $payError.set('Please enter your card details.');
      void loadCart(slug);
      break;
    case 'failed':
      $payError.set(notificationFor(outcome.error).message);
      notifyError(outcome.error);
      void loadCart(slug);
      break;
    case 'ignored':
      break;
  }
}
