/**
 * `addLine()` (catalog helper), re-exported by cart.ts. Its own module so the product and bundle
 * pages' add-to-cart script does not pull in the cart page's actions (page budget).
 */
import type { Cart } from '../lib/contract/answers.ts';
import type { AddLinePayload } from '../lib/contract/payloads.ts';
import { addCartLine, browserRequester } from '../lib/api-client/index.ts';
import { $cart } from './cart-core.ts';
import { $storeSlug } from './store.ts';

/**
 * Adds a product variant or a whole bundle to the cart and stores the API's answer, so every
 * subscriber of `$cart` (the header count, the cart island) updates at once. Errors are thrown
 * to the caller, which shows them (spec §8).
 */
export async function addLine(payload: AddLinePayload, slug: string | null = $storeSlug.get()): Promise<Cart> {
  if (!slug) throw new Error('addLine needs the store slug: pass it or load the store first');
  const cart = await addCartLine(browserRequester(), slug, payload);
  $cart.set(cart);
  return cart;
}
