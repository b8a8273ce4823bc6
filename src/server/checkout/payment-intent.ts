import type { CheckoutAnswer } from '../../lib/contract/answers.ts';
import { formatCurrency } from '../../lib/money.ts';
import { cartState, findCart, toStockLine } from '../carts/cart-service.ts';
import type { StoreRow } from '../db/schema.ts';
import { firstShortfall, stockMessage } from '../domain/stock.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, HttpError, invalid, invalidField } from '../http/errors.ts';
import { reshapeIntent } from '../orders/reshape.ts';
import type { ProviderIntent } from '../payments/provider.ts';
import { invalidCode } from '../gift-cards/routes.ts';
import { EMPTY_CART } from './finalize.ts';
import { recordRelease, settleRelease } from './release.ts';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'payments' | 'logger'>;

const OPEN_STATUSES = new Set(['requires_payment_method', 'requires_confirmation']);

/** The refusal of a card total the provider would not take (its limit, e.g. $999,999.99). */
const aboveCardLimit = (limitCents: number) =>
  `The total is above ${formatCurrency(limitCents)}, the most one card payment can be. Please remove some items.`;

/**
 * The payment intent for the cart's total as the server computes it now (`POST …/cart/checkout`):
 * the cart's open intent, its amount brought up to date, or a new one. A cart that moved to its next
 * checkout round meanwhile (a finalize or a release) is read again, a few times, then answered 409.
 */
export async function openPaymentIntent(deps: Deps, store: StoreRow, token: string): Promise<CheckoutAnswer> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer = await checkoutOnce(deps, store, token);
    if (answer) return answer;
  }
  throw conflict('Your cart is being updated. Please try again.');
}

/**
 * One checkout on the cart as read now; null when a concurrent finalize or release moved the cart
 * to its next round (`intent_seq`) before the intent could be attached.
 */
async function checkoutOnce(deps: Deps, store: StoreRow, token: string): Promise<CheckoutAnswer | null> {
  const { db, clock } = deps;
  const cart = await findCart(db, store.id, token);
  const state = await cartState(db, store, cart ?? null, clock.now());
  if (!cart || state.lines.length === 0) throw invalid({ cart: [EMPTY_CART] });
  if (!cart.address) throw invalidField('address', 'Please enter your shipping address.');
  // Before any payment is opened; stock is taken only by finalize (docs/decisions/090).
  const short = firstShortfall(state.lines.map(toStockLine));
  if (short) throw invalidField('quantity', stockMessage(short.stock, short.name));
  // A card disabled in the console after it was applied: refused with the answer of an unusable code.
  if (state.cards.some((card) => card.disabled)) throw invalidCode();

  const amount = state.totals.totalCents;
  if (amount === 0) return { paymentIntent: null, requiresPayment: false };
  const payments = deps.payments;
  if (!payments) throw new HttpError(503, { message: 'Card payments are not available right now.' });
  if (amount > payments.maxAmountCents) throw invalid({ cart: [aboveCardLimit(payments.maxAmountCents)] });

  let intent: ProviderIntent | null = cart.payment_intent_id
    ? await payments.retrieveIntent(cart.payment_intent_id)
    : null;
  if (intent?.cartId === cart.id && OPEN_STATUSES.has(intent.status)) {
    if (intent.amountCents !== amount)
      intent = await payments.updateAmount(intent.id, amount, `amount-${intent.id}-${amount}`);
  } else if (!(intent?.status === 'succeeded' && intent.amountCents === amount && intent.cartId === cart.id)) {
    // A paid intent for another amount can never become an order: give the money back first
    // (release.ts), so the shopper is never charged for this cart twice.
    const released = intent !== null && intent.status === 'succeeded' && intent.cartId === cart.id;
    if (released) {
      // recordRelease also moves the cart to its next checkout round. An order holding the
      // intent means a finalize won meanwhile: the cart is read again.
      const order = await recordRelease(db, cart.id, intent!, 'cart changed after payment, checked out again');
      if (order) return null;
      await settleRelease(deps, intent!.id);
    }
    // The key names the cart, its checkout round and the amount: a retry or a concurrent call
    // gets the same intent, a changed cart a new one.
    const current = released
      ? await db.selectFrom('carts').select('intent_seq').where('id', '=', cart.id).executeTakeFirstOrThrow()
      : cart;
    const seq = intent && !released ? current.intent_seq + 1 : current.intent_seq;
    if (intent && !released && !(await moveRound(deps, cart.id, current.intent_seq, seq))) return null;
    intent = await payments.createIntent({
      amountCents: amount,
      cartId: cart.id,
      storeSlug: store.slug,
      idempotencyKey: `checkout-${cart.id}-${seq}-${amount}`,
    });
    if (!(await attachIntent(deps, cart.id, seq, intent.id))) return null;
  }
  return { paymentIntent: reshapeIntent(intent), requiresPayment: true };
}

/**
 * The cart's intent and round change only in the round they were read in: an UPDATE locks the row
 * and re-checks `intent_seq` on its newest version, so a finalize (which clears the intent and
 * moves the round under the same lock) is never undone by a checkout that read the cart before it.
 */
async function attachIntent({ db }: Deps, cartId: string, seq: number, intentId: string): Promise<boolean> {
  const attached = await db
    .updateTable('carts')
    .set({ payment_intent_id: intentId })
    .where('id', '=', cartId)
    .where('intent_seq', '=', seq)
    .executeTakeFirst();
  return attached.numUpdatedRows === 1n;
}

async function moveRound({ db }: Deps, cartId: string, from: number, to: number): Promise<boolean> {
  const moved = await db
    .updateTable('carts')
    .set({ intent_seq: to })
    .where('id', '=', cartId)
    .where('intent_seq', '=', from)
    .executeTakeFirst();
  return moved.numUpdatedRows === 1n;
}
