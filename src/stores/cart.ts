/**
 * The shopper's cart. Shell part (in cart-core.ts, re-exported): `$cart`, `$cartCount`, `loadCart()`,
 * state helpers; the cart page's actions here. Adding a line lives in cart-add.ts (page budget).
 */
import type { Cart } from '../lib/contract/answers.ts';
import {
  applyGiftCard as applyGiftCardCall,
  browserRequester,
  changeCartLine,
  removeCartLine,
  removeGiftCard as removeGiftCardCall,
} from '../lib/api-client/index.ts';
import { bundleLinesOf } from '../lib/bundle-grouping.ts';
import { withQuantity, withoutGiftCard, withoutLine } from '../lib/cart-optimistic.ts';
import { atom } from 'nanostores';
import { notificationFor } from '../lib/error-catalogue.ts';
import { notifyError } from './notifications.ts';
import { $storeSlug } from './store.ts';
import { $cart } from './cart-core.ts';

export { $cart, $cartCount, clearCart, loadCart, resetCart, setCart } from './cart-core.ts';

// ---------------------------------------------------------------- cart page actions (cart helper)
// Each change shows at once (optimistic), is replaced by the API's answer, and on failure rolls
// back to the cart as it was and shows the spec §8 notification.

// Changes reach the API one at a time and in order (two quick '+' presses must not arrive
// swapped); only the answer to the newest change is shown, so the screen never steps backwards.
let queue: Promise<unknown> = Promise.resolve();
let newestChange = 0;

function inOrder<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Runs one cart change: optimistic state first, the API's cart after, rollback + toast on failure
 * (`onError` hears the failure too, for a message beside the control that made it).
 */
async function optimisticChange(
  optimistic: ((cart: Cart) => Cart) | null,
  call: (slug: string) => Promise<Cart>,
  onError?: (error: unknown) => void,
): Promise<boolean> {
  const slug = $storeSlug.get();
  const before = $cart.get();
  if (!slug || !before) return false;
  const change = ++newestChange;
  if (optimistic) $cart.set(optimistic(before));
  try {
    const cart = await inOrder(() => call(slug));
    if (change === newestChange) $cart.set(cart);
    return true;
  } catch (error) {
    // A newer change is in flight and its answer (the server's truth) will replace the screen.
    if (change === newestChange) $cart.set(before);
    notifyError(error);
    onError?.(error);
    return false;
  }
}

/** PATCH a line's quantity; on a bundle line the quantity is the bundle's and moves all its lines. */
export function changeQuantity(lineId: string, quantity: number): Promise<boolean> {
  if (!Number.isInteger(quantity) || quantity < 1) return removeLine(lineId);
  return optimisticChange(
    (cart) => withQuantity(cart, lineId, quantity),
    (slug) => changeCartLine(browserRequester(), slug, lineId, { cart_line_item: { quantity } }),
  );
}

/** DELETE a line; removing any line of a bundle removes all of the bundle's lines. */
export function removeLine(lineId: string): Promise<boolean> {
  const bundleIds = bundleLinesOf($cart.get()?.cartItems ?? [], lineId).map((line) => line.id);
  return optimisticChange(
    (cart) => withoutLine(cart, lineId),
    async (slug) => {
      let cart = await removeCartLine(browserRequester(), slug, lineId);
      // Whether the API drops a bundle's sibling lines with the first is its business; make sure they go.
      for (const id of bundleIds) {
        if (id !== lineId && cart.cartItems.some((item) => item.id === id))
          cart = await removeCartLine(browserRequester(), slug, id);
      }
      return cart;
    },
  );
}

/** Why the last gift card code was refused, shown under its field (the toast says it too); null once one applies. */
export const $giftCardError = atom<string | null>(null);

/** POST gift_cards/apply; the card shows once the API accepted it. */
export async function applyGiftCard(code: string): Promise<boolean> {
  const applied = await optimisticChange(
    null,
    (slug) => applyGiftCardCall(browserRequester(), slug, { gift_card: { code: code.trim() } }),
    (error) => $giftCardError.set(notificationFor(error).message),
  );
  if (applied) $giftCardError.set(null);
  return applied;
}

/** POST gift_cards/{id}/remove. */
export function removeGiftCard(giftCardId: string): Promise<boolean> {
  const code = $cart.get()?.giftCards.find((card) => card.id === giftCardId)?.code ?? '';
  return optimisticChange(
    (cart) => withoutGiftCard(cart, giftCardId),
    (slug) => removeGiftCardCall(browserRequester(), slug, giftCardId, { gift_card: { code } }),
  );
}
