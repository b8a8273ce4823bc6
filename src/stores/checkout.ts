/**
 * The checkout page's state and actions: one page, one action. `$checkout` holds the flags of
 * spec §3: the card form sets four validity flags and the contact email the fifth (the email is
 * asked once), the payment flow (lib/payment-flow.ts) the three progress flags. The rest is the
 * address form (values, validity, what the cart has saved: it is saved in the background as it
 * changes, so tax and shipping follow it), the name on the card, the payment provider and the
 * outcome of placing the order.
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
  firstInvalidField,
  initialCheckoutFlags,
  isCardValid,
  isSending,
  type CardFlag,
  type CheckoutField,
  type CheckoutFlags,
  type ProgressFlag,
} from '../lib/checkout-rules.ts';
import { notificationFor } from '../lib/error-catalogue.ts';
import { createPaymentFlow, type PaymentFlow } from '../lib/payment-flow.ts';
import { loadPaymentProvider } from '../lib/payments/load-stripe.ts';
import { formMessage, type FieldResult } from '../lib/validation/index.ts';
import { $cart, loadCart, resetCart, setCart } from './cart.ts';
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

/** True after a refused Place order: every field shows its message, and the address form its own. */
export const $attempted = atom(false);

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

/** 'Form incomplete.' or 'Sorry, not all fields are filled out correctly.' after a refused Place order (spec §5). */
export const $addressMessage = computed([$attempted, $addressValidity], (attempted, validity) =>
  attempted ? formMessage(ADDRESS_FIELDS.map((field) => validity[field])) : null,
);

/** Starts the form from the cart once, when it first arrives: a cart with an address (a second visit) starts saved. */
export function startFromCart(cart: Cart): void {
  if ($checkoutReady.get()) return;
  $checkoutReady.set(true);
  if (!cart.address) return;
  $address.set(cart.address);
  $savedAddress.set(cart.address);
}

/** One field typed or chosen. */
export function changeAddress(field: AddressField, value: string): void {
  const address = $address.get();
  if (address[field] === value) return;
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
  // The card's email flag (spec §3) is the contact email's: the receipt goes there, asked once.
  if (field === 'email') setCardFlag('cardEmail', valid);
}

/** The save in flight, so Place order can wait for it rather than send a second one. */
let saving: Promise<void> | null = null;
/** An address the server refused: not sent again by itself until it changes. */
let refused: Address | null = null;

/** `PUT …/cart` with the address shown, when every field is valid; the answer prices tax and shipping. */
export async function saveAddress(slug: string): Promise<void> {
  if (saving) await saving;
  if (!$addressValid.get() || $addressSaved.get()) return;
  const snapshot = $address.get();
  $savingAddress.set(true);
  saving = (async () => {
    try {
      setCart(await putAddress(browserRequester(), slug, { cart: snapshot }));
      refused = null;
      $addressErrors.set({});
      $savedAddress.set(snapshot);
    } catch (error) {
      refused = snapshot;
      $addressErrors.set(addressErrors(error));
      notifyError(error);
    } finally {
      saving = null;
      $savingAddress.set(false);
    }
  })();
  await saving;
}

/** How long typing must pause before the address is saved in the background. */
export const ADDRESS_SAVE_DELAY_MS = 600;
let saveTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Saves the address in the background whenever it is valid and not what the cart has, once typing
 * pauses: there is no save button, and tax and shipping follow the address as it changes.
 */
function saveAddressAsItChanges(slug: string): () => void {
  const schedule = () => {
    clearTimeout(saveTimer);
    if (!$addressValid.get() || $addressSaved.get() || sameAddress(refused, $address.get())) return;
    saveTimer = setTimeout(() => void saveAddress(slug), ADDRESS_SAVE_DELAY_MS);
  };
  const stops = [$address.listen(schedule), $addressValidity.listen(schedule), $savedAddress.listen(schedule)];
  return () => {
    clearTimeout(saveTimer);
    for (const stop of stops) stop();
  };
}
let stopSaving: (() => void) | null = null;

// ---------------------------------------------------------------- the card and the order

/** 'Name on card'. */
export const $cardName = atom('');

export function setCardName(name: string): void {
  $cardName.set(name);
}

/** Stripe.js, or the test-mode stand-in with the same surface (lib/payments/load-stripe.ts). */
export type ProviderState =
  { kind: 'none' } | { kind: 'loading' } | { kind: 'ready'; stripe: Stripe } | { kind: 'failed'; message: string };

export const $paymentProvider = atom<ProviderState>({ kind: 'none' });

/** A load started before the last reset must not land in the fresh checkout. */
let providerLoad = 0;

/** What the payment section says when the card form cannot load. */
export const CARD_FORM_FAILED = 'The card form could not be loaded. Please check your connection and reload the page.';

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
      if (load === providerLoad) $paymentProvider.set({ kind: 'failed', message: CARD_FORM_FAILED });
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
  $attempted.set(false);
  $savingAddress.set(false);
  $checkoutReady.set(false);
  stopSaving?.();
  stopSaving = null;
  saving = null;
  refused = null;
  $cardName.set('');
  providerLoad++;
  $paymentProvider.set({ kind: 'none' });
  $payError.set(null);
  $placedOrder.set(null);
  flow = null;
}

/** Opens the checkout of this store: a fresh form, its payment flow and the current cart. */
export function startCheckout(slug: string): Promise<Cart | null> {
  resetCheckout();
  stopSaving = saveAddressAsItChanges(slug);
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
 * The field Place order would be refused for (every field then shows its message), or null when
 * the order may go: the page moves focus there.
 */
export function refusePlaceOrder(): CheckoutField | null {
  const field = firstInvalidField({
    flags: $checkout.get(),
    addressValidity: $addressValidity.get(),
    requiresPayment: $cart.get()?.requiresPayment ?? false,
  });
  if (field) $attempted.set(true);
  return field;
}

/**
 * Places the order with the card element (null when gift cards cover the total): saves the address
 * if the background save has not yet, pays, then finalizes (lib/payment-flow.ts). A refusal is kept
 * in $payError and the cart read again.
 */
export async function placeOrder(slug: string, card: StripeCardNumberElement | null): Promise<void> {
  if (!flow || refusePlaceOrder()) return;
  $payError.set(null);
  clearTimeout(saveTimer);
  await saveAddress(slug);
  // Refused by the server: its messages are on their fields; nothing is paid for an unpriced cart.
  if (!$addressSaved.get()) return;
  const outcome = await flow.placeOrder({ card, billing: billingDetails($address.get(), $cardName.get()) });
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
