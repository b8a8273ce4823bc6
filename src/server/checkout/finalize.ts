import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, OrderRow, StoreRow } from '../db/schema.ts';
import { cartState, reshapeCart, toStockLine, type CartLine } from '../carts/cart-service.ts';
import { demandByVariant, stockMessage } from '../domain/stock.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, HttpError, invalid, invalidField } from '../http/errors.ts';
import type { ProviderIntent } from '../payments/provider.ts';
import { invalidCode } from '../gift-cards/routes.ts';
import { queueOrderReceipt } from '../mail/order-receipt.ts';
import { BUNDLE_QUANTITIES, stockChanged, type StockChange } from '../publishing/auto-publish.ts';
import { recordRelease, releaseOf, settleRelease } from './release.ts';

type Db = Kysely<Database>;

export const EMPTY_CART = 'Your cart is empty.';
export const CART_CHANGED = 'Your cart changed after the payment was started. Please review your cart and pay again.';
const GIFT_CARD_CHANGED = 'A gift card balance changed. Please review your cart.';
const PAYMENT_NOT_FOUND = 'The payment could not be found.';

async function orderById(db: Db, id: string) {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

async function orderByIntent(db: Db, intentId: string) {
  return db.selectFrom('orders').selectAll().where('payment_intent_id', '=', intentId).executeTakeFirst();
}

const PAYMENT_REFUNDED = 'Your payment is being refunded; please review your cart and pay again.';
/** Refusals after a card payment succeeded: the payment is released and the shopper told so. */
export const PAYMENT_RELEASED = `Your cart changed after the payment was started. ${PAYMENT_REFUNDED}`;

/** The gift card debit lost a race inside the order transaction; the transaction rolled back whole. */
class GiftCardRace extends Error {}

/** Another order took the stock this one needs; the transaction rolled back whole. */
class StockRace extends Error {
  readonly item: string;
  readonly shopperMessage: string;
  constructor(item: string, shopperMessage: string) {
    super(shopperMessage);
    this.item = item;
    this.shopperMessage = shopperMessage;
  }
}

type Outcome = { order: OrderRow } | { release: string; message?: string };

/**
 * Takes what the order's lines want from stock: each variant once, its own line and its share of
 * every bundle summed, with a conditional update that never takes it below zero. Variants are
 * updated in id order, so two orders sharing variants lock them in the same order and cannot
 * deadlock. Throws StockRace, naming the item, when another order got there first.
 */
async function takeStock(trx: Db, lines: readonly CartLine[]): Promise<StockChange[]> {
  const wanted = demandByVariant(lines.map(toStockLine)).sort((a, b) => a.variantId - b.variantId);
  const changes: StockChange[] = [];
  for (const { variantId, demand, name } of wanted) {
    const taken = await trx
      .updateTable('product_variants')
      .set((eb) => ({ stock: eb('stock', '-', demand) }))
      .where('id', '=', variantId)
      .where('stock', '>=', demand)
      .returning(['stock', BUNDLE_QUANTITIES])
      .executeTakeFirst();
    if (taken) {
      changes.push({ before: taken.stock + demand, after: taken.stock, bundleQuantities: taken.bundle_quantities });
      continue;
    }
    const left = await trx
      .selectFrom('product_variants')
      .select('stock')
      .where('id', '=', variantId)
      .executeTakeFirst();
    throw new StockRace(name, stockMessage(left?.stock ?? 0, name));
  }
  return changes;
}

/**
 * Turns a paid cart into exactly one order. Safe to call any number of times, concurrently, from the
 * shopper's browser and from the webhook: the cart row lock serialises callers, the unique
 * payment_intent_id refuses a second order, and gift cards and stock are taken with conditional
 * UPDATEs. A succeeded payment that cannot become an order (the cart or a gift card changed after it
 * was started, or another order took the stock) is released — refunded through the provider — and
 * answered 409 (release.ts).
 */
export async function finalizeCart(
  deps: AppDeps,
  store: StoreRow,
  cartId: string,
  paymentIntentId: string | undefined,
): Promise<OrderRow> {
  const { db, clock } = deps;

  if (paymentIntentId) {
    const existing = await orderByIntent(db, paymentIntentId);
    if (existing) {
      if (existing.cart_id !== cartId) throw invalidField('payment_intent_id', PAYMENT_NOT_FOUND);
      return existing;
    }
    const released = await releaseOf(db, paymentIntentId);
    if (released) {
      if (released.cart_id !== cartId) throw invalidField('payment_intent_id', PAYMENT_NOT_FOUND);
      // A release still owed to the shopper is retried now (idempotent at the provider).
      await settleRelease(deps, paymentIntentId);
      throw conflict(released.kind === 'refund' ? PAYMENT_RELEASED : CART_CHANGED);
    }
  }

  const cart = await db.selectFrom('carts').selectAll().where('id', '=', cartId).executeTakeFirstOrThrow();
  const before = await cartState(db, store, cart, clock.now());

  // The provider is asked outside the transaction: PGlite has one connection, and a network call
  // must not hold row locks. Only the provider's word makes an intent paid.
  let intent: ProviderIntent | null = null;
  if (paymentIntentId && !deps.payments && before.totals.totalCents > 0)
    throw new HttpError(503, { message: 'Card payments are not available right now.' });
  if (paymentIntentId && deps.payments) {
    intent = await deps.payments.retrieveIntent(paymentIntentId);
    if (intent?.cartId !== cart.id) throw invalidField('payment_intent_id', PAYMENT_NOT_FOUND);
  }
  const paid = intent?.status === 'succeeded' ? intent : null;

  if (before.lines.length === 0) {
    try {
      return await previousOrder(db, cart.id, paymentIntentId);
    } catch (error) {
      // Paid, then the cart was emptied elsewhere: the payment can never become an order.
      if (paid) return releaseAndRefuse(deps, cart.id, paid, 'cart emptied after payment');
      throw error;
    }
  }
  if (!cart.address) throw invalidField('address', 'Please enter your shipping address.');
  // Unpaid, a card disabled in the console is refused as at checkout; paid, the total no longer matches
  // (it counts for nothing) and the payment is released below.
  if (!paid && before.cards.some((card) => card.disabled)) throw invalidCode();
  // Whether a card payment is missing is decided under the lock below: `before` was read outside any
  // transaction (lines and gift cards on different connections) and may straddle a winner's commit.

  let outcome: Outcome;
  try {
    outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
      const locked = await trx
        .selectFrom('carts')
        .selectAll()
        .where('id', '=', cart.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (paid) {
        const existing = await orderByIntent(trx, paid.id);
        if (existing) return { order: existing };
        // Released by a caller that held the lock before this one: never order it.
        if (await releaseOf(trx, paid.id)) return { release: 'released meanwhile' };
      }
      const state = await cartState(trx, store, locked, clock.now());
      // Another caller finished first while this one waited for the lock.
      if (state.lines.length === 0) return { order: await previousOrder(trx, locked.id, paymentIntentId) };
      const expected = paid ? paid.amountCents : 0;
      if (state.totals.totalCents !== expected) {
        if (paid) return { release: 'cart or gift card changed after payment' };
        if (!paymentIntentId)
          throw invalidField('payment_intent_id', 'A card payment is required to place this order.');
        throw new HttpError(402, { message: 'The payment has not been completed.' });
      }

      const answer = reshapeCart(state);
      const orderId = randomUUID();
      const inserted = await trx
        .insertInto('orders')
        .values({
          id: orderId,
          store_id: store.id,
          cart_id: locked.id,
          payment_intent_id: paid?.id ?? null,
          provider: paid?.provider ?? null,
          subtotal_cents: state.totals.subtotalCents,
          tax_cents: state.totals.taxCents,
          shipping_cents: state.totals.shippingCents,
          gift_cards_cents: state.totals.giftCardsCents,
          total_cents: state.totals.totalCents,
          details: JSON.stringify({
            cartItems: answer.cartItems,
            cartLineItemsSize: answer.cartLineItemsSize,
            giftCards: answer.giftCards.filter((g) => g.amount !== '0.00'),
            address: locked.address!,
          }),
        })
        .onConflict((oc) => oc.column('payment_intent_id').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted) {
        const existing = paid ? await orderByIntent(trx, paid.id) : undefined;
        if (existing) return { order: existing };
        throw conflict('This order is already being placed.');
      }
      await queueOrderReceipt(trx, store, inserted, deps);

      const now = clock.now();
      // Debit in id order: two orders sharing cards then lock them in the same order and cannot deadlock.
      const debits = state.totals.giftCards
        .filter((card) => card.amountCents > 0)
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      for (const card of debits) {
        const debited = await trx
          .updateTable('gift_cards')
          .set((eb) => ({ balance_cents: eb('balance_cents', '-', card.amountCents) }))
          .where('id', '=', card.id)
          .where('balance_cents', '>=', card.amountCents)
          .where('disabled_at', 'is', null)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
          .executeTakeFirst();
        if (debited.numUpdatedRows !== 1n) throw new GiftCardRace();
        await trx
          .insertInto('gift_card_debits')
          .values({ gift_card_id: card.id, order_id: orderId, amount_cents: card.amountCents })
          .execute();
      }
      // Last before the cart is emptied: the hottest rows (a popular variant) stay locked the shortest.
      // A variant sold out (or a bundle no longer buyable) is a catalog change auto-publish hears of (ADR 213).
      await stockChanged(trx, store.id, await takeStock(trx, state.lines), now);

      await trx.deleteFrom('cart_lines').where('cart_id', '=', locked.id).execute();
      await trx.deleteFrom('cart_gift_cards').where('cart_id', '=', locked.id).execute();
      await trx
        .updateTable('carts')
        .set((eb) => ({
          last_order_id: orderId,
          payment_intent_id: null,
          intent_seq: eb('intent_seq', '+', 1),
          updated_at: now,
        }))
        .where('id', '=', locked.id)
        .execute();
      return { order: inserted };
    });
  } catch (error) {
    if (error instanceof StockRace) {
      if (!paid) throw conflict(`${error.shopperMessage} Please review your cart.`);
      outcome = { release: `out of stock: ${error.item}`, message: `${error.shopperMessage} ${PAYMENT_REFUNDED}` };
    } else {
      if (!(error instanceof GiftCardRace)) throw error;
      if (!paid) throw conflict(GIFT_CARD_CHANGED);
      outcome = { release: 'gift card spent by another order' };
    }
  }
  if ('order' in outcome) {
    // A new order committed its receipt with it: every caller (shopper, webhook, reconciliation) has
    // the outbox send it now rather than at the worker's next poll; a no-op when nothing is due.
    deps.mail.wake();
    return outcome.order;
  }
  return releaseAndRefuse(deps, cart.id, paid!, outcome.release, outcome.message);
}

/** Records the release (unless an order took the intent meanwhile), asks the provider, answers 409. */
async function releaseAndRefuse(
  deps: AppDeps,
  cartId: string,
  intent: ProviderIntent,
  reason: string,
  message = PAYMENT_RELEASED,
): Promise<OrderRow> {
  const order = await recordRelease(deps.db, cartId, intent, reason);
  if (order) return order;
  await settleRelease(deps, intent.id);
  throw conflict(message);
}

/**
 * An empty cart that was just ordered answers that order again (a retry, a second tab, or a
 * concurrent call that read the cart before the winner committed: hence the fresh reads here).
 */
async function previousOrder(db: Db, cartId: string, paymentIntentId: string | undefined): Promise<OrderRow> {
  if (paymentIntentId) {
    const byIntent = await orderByIntent(db, paymentIntentId);
    if (byIntent?.cart_id === cartId) return byIntent;
  }
  const cart = await db.selectFrom('carts').select('last_order_id').where('id', '=', cartId).executeTakeFirst();
  if (cart?.last_order_id) {
    const order = await orderById(db, cart.last_order_id);
    if (order && (!paymentIntentId || order.payment_intent_id === paymentIntentId)) return order;
  }
  throw invalid({ cart: [EMPTY_CART] });
}
