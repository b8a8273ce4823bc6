/**
 * The cart state every page shares: `$cart`, the header count, `loadCart()` and state helpers.
 * Kept apart from the cart actions in cart.ts (which re-exports all of this) so the boot script of
 * the store front and shop pages stays tiny.
 */
import { atom } from 'nanostores';
import type { Cart } from '../lib/contract/answers.ts';
// The requester and the cart read by their own files, not the index: the boot script's 5 KB budget
// (docs/decisions/170-services-and-one-api-client.md) cannot carry every call the index re-exports.
import { getCart } from '../lib/api-client/cart.ts';
import { browserRequester } from '../lib/api-client/requester.ts';
import { COOKIE, browserCookieJar, cookieToRemove } from '../lib/cookies.ts';
import { MESSAGES } from '../lib/contract/messages.ts';
import { reportError } from '../lib/report.ts';
import { $storeSlug } from './store.ts';

/** The cart as the API last answered it; null before the first load. */
export const $cart = atom<Cart | null>(null);

/** The header's count: `cartLineItemsSize` (0 before the first load). */
export const $cartCount = atom(0);
// A listener rather than `computed` keeps nanostores' lifecycle code out of the boot script.
$cart.listen((cart) => $cartCount.set(cart?.cartLineItemsSize ?? 0));

/** An empty cart, used when the cart cannot be fetched (spec §8). */
export function emptyCart(): Cart {
  return {
    cartItems: [],
    cartLineItemsSize: 0,
    subTotal: '0.00',
    total: '0.00',
    tax: '0.00',
    shippingFee: '0.00',
    giftCards: [],
    address: null,
    freeShippingThreshold: null,
    requiresPayment: false,
  };
}

/** Replaces the cart with an API answer (every cart call answers the whole cart). */
export function setCart(cart: Cart): void {
  $cart.set(cart);
}

/** Empties the cart state (no API call). */
export function resetCart(): void {
  $cart.set(emptyCart());
}

let inflight: { slug: string; promise: Promise<Cart | null> } | null = null;

/**
 * Fetches the cart of the current (or given) store; on failure the cart is emptied and 'Error
 * fetching cart details' reported. Calls made while one is running share it (the boot script and
 * a cart island both load on page start).
 */
export function loadCart(slug: string | null = $storeSlug.get()): Promise<Cart | null> {
  if (!slug) return Promise.resolve(null);
  if (inflight?.slug === slug) return inflight.promise;
  const promise = (async () => {
    try {
      const cart = await getCart(browserRequester(), slug);
      $cart.set(cart);
      return cart;
    } catch (error) {
      resetCart();
      reportError(MESSAGES.cartFetchFailed, error);
      return null;
    } finally {
      inflight = null;
    }
  })();
  inflight = { slug, promise };
  return promise;
}

/** Spec §4: clearing the cart empties it, removes the recipient-token cookie and reloads the cart. */
export async function clearCart(slug: string | null = $storeSlug.get()): Promise<Cart | null> {
  // A load already running still carries the old token: let it finish, then load afresh.
  await inflight?.promise;
  resetCart();
  browserCookieJar().set(cookieToRemove(COOKIE.recipientToken, { slug: null, customDomain: null }));
  return loadCart(slug);
}
