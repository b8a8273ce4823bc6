/**
 * Refunds from the console (docs/decisions/198-console-orders.md). A refund is reserved first — its
 * row written under the order's row lock, after every earlier refund (settled or not) was counted, so
 * two refunds at once can never give back more than was paid — then the provider is asked outside any
 * transaction with a key fixed by the row, then it is settled: the order's refunded total raised, gift
 * cards credited, stock returned, audited and mailed in one transaction. A provider failure leaves the
 * refund reserved and owed: the same request again (the form keeps its idempotency key), the owner's
 * "Try again" or the reconciliation job settles it, never a second refund.
 */
import type { Kysely } from 'kysely';
import { centsToDecimal, decimalToCents, formatCurrency } from '../../lib/money.ts';
import type { Database, GiftCardCredit, OrderRefundRow, OrderRow, RestockedLine, StoreRow } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { HttpError, invalidField, notFound } from '../http/errors.ts';
import { recordAudit } from '../console/audit.ts';
import type { ConsoleSessionRow } from '../console/sessions.ts';
import { queueRefundNotice } from '../mail/order-notices.ts';
import { BUNDLE_QUANTITIES, stockChanged, type StockChange } from '../publishing/auto-publish.ts';
import { orderRefunds, refundedCardCents, restockedLineIds, storeOrder } from './console-orders.ts';
import { notTriedSince } from '../reconciliation/not-tried-since.ts';
import { orderNumber } from './reshape.ts';
import { paymentStatus, refundableCents } from './order-status.ts';

type Db = Kysely<Database>;

/** Who changes an order, and in which store: the console request's session and store. */
export type ConsoleActor = { session: ConsoleSessionRow; consoleStore: StoreRow };
/** Who a refund's ledger, stock log and audit entries name: the operator who asked for it. */
type RefundActor = { operatorId: number | null; actor: string };
export type RefundRequest = { amount: string; restock: readonly string[]; idempotency_key: string };

export const REFUND_MESSAGES = {
  fullyRefunded: 'This order is refunded in full.',
  tooMuch: (left: number) => `You can refund at most ${formatCurrency(left)}.`,
  unknownLine: 'Choose lines of this order.',
  alreadyRestocked: (name: string) => `${name} is already back in stock.`,
  keyReused: 'This refund was already made with another amount. Reload the page and try again.',
} as const;

/** The chosen lines' stock to give back; refuses a line not in the order or already given back. */
function linesToRestock(
  order: OrderRow,
  refunds: readonly OrderRefundRow[],
  chosen: readonly string[],
): RestockedLine[] {
  const done = restockedLineIds(refunds);
  return [...new Set(chosen)].map((lineId) => {
    const item = order.details.cartItems.find((line) => line.id === lineId);
    if (!item) throw invalidField('restock', REFUND_MESSAGES.unknownLine);
    if (done.has(lineId)) throw invalidField('restock', REFUND_MESSAGES.alreadyRestocked(item.product_details.name));
    return { line_id: lineId, variant_id: Number(item.product_details.product_variant_id), quantity: item.quantity };
  });
}

/** The card's part first (what the shopper paid last), then the gift cards in the order they paid. */
async function splitRefund(trx: Db, order: OrderRow, refunds: readonly OrderRefundRow[], amountCents: number) {
  const cardCents = Math.min(amountCents, order.total_cents - refundedCardCents(refunds));
  let rest = amountCents - cardCents;
  const credited = new Map<string, number>();
  for (const credit of refunds.flatMap((r) => r.gift_card_credits))
    credited.set(credit.gift_card_id, (credited.get(credit.gift_card_id) ?? 0) + credit.amount_cents);
  const debits = await trx
    .selectFrom('gift_card_debits')
    .select(['gift_card_id', 'amount_cents'])
    .where('order_id', '=', order.id)
    .orderBy('id')
    .execute();
  const credits: GiftCardCredit[] = [];
  for (const debit of debits) {
    if (rest === 0) break;
    const take = Math.min(rest, debit.amount_cents - (credited.get(debit.gift_card_id) ?? 0));
    if (take <= 0) continue;
    credits.push({ gift_card_id: debit.gift_card_id, amount_cents: take });
    credited.set(debit.gift_card_id, (credited.get(debit.gift_card_id) ?? 0) + take);
    rest -= take;
  }
  if (rest !== 0) throw new Error(`order ${order.id}: ${rest} cents of a refund belong to no payment`);
  return { cardCents, credits };
}

/** Writes the refund row, or finds the refund this key made before. */
function reserveRefund(deps: AppDeps, by: ConsoleActor, orderId: string, request: RefundRequest) {
  const amountCents = decimalToCents(request.amount);
  return deps.db.transaction().execute(async (trx) => {
    const order = await storeOrder(trx, by.consoleStore.id, orderId, true);
    if (!order) throw notFound();
    const refunds = await orderRefunds(trx, order.id);
    const same = refunds.find((refund) => refund.idempotency_key === request.idempotency_key);
    if (same) {
      if (same.amount_cents !== amountCents) throw invalidField('idempotency_key', REFUND_MESSAGES.keyReused);
      return { order, refund: same };
    }
    const left = refundableCents(order, refunds);
    if (left <= 0) throw invalidField('amount', REFUND_MESSAGES.fullyRefunded);
    if (amountCents > left) throw invalidField('amount', REFUND_MESSAGES.tooMuch(left));
    const restocked = linesToRestock(order, refunds, request.restock);
    const { cardCents, credits } = await splitRefund(trx, order, refunds, amountCents);
    const refund = await trx
      .insertInto('order_refunds')
      .values({
        order_id: order.id,
        idempotency_key: request.idempotency_key,
        amount_cents: amountCents,
        card_cents: cardCents,
        gift_card_credits: JSON.stringify(credits),
        restocked: JSON.stringify(restocked),
        operator_id: by.session.operatorId,
        actor: by.session.email,
        created_at: deps.clock.now(),
        settled_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { order, refund };
  });
}

/** Gives the reserved amount back through the provider; its key makes a retry give back nothing more. */
async function refundCard(deps: AppDeps, order: OrderRow, refund: OrderRefundRow): Promise<void> {
  if (refund.card_cents === 0 || refund.settled_at) return;
  if (!order.payment_intent_id) throw new Error(`order ${order.id} has a card part but no payment`);
  if (!deps.payments) throw new HttpError(503, { message: 'Card payments are not available right now.' });
  await deps.payments.refundIntent(order.payment_intent_id, `order-refund-${order.id}-${refund.id}`, refund.card_cents);
}

/**
 * Credits gift cards back, in id order as finalize debits them (two transactions never wait on each other
 * crosswise), each an entry of the card's ledger (docs/decisions/199-console-catalog-and-gift-cards.md).
 */
async function creditGiftCards(trx: Db, by: RefundActor, credits: readonly GiftCardCredit[], note: string, at: Date) {
  for (const credit of [...credits].sort((a, b) => (a.gift_card_id < b.gift_card_id ? -1 : 1))) {
    const card = await trx
      .updateTable('gift_cards')
      .set((eb) => ({ balance_cents: eb('balance_cents', '+', credit.amount_cents) }))
      .where('id', '=', credit.gift_card_id)
      .returning('balance_cents')
      .executeTakeFirst();
    if (!card) continue;
    await trx
      .insertInto('gift_card_events')
      .values({
        gift_card_id: credit.gift_card_id,
        kind: 'adjustment',
        amount_cents: credit.amount_cents,
        balance_after_cents: card.balance_cents,
        note,
        operator_id: by.operatorId,
        actor: by.actor,
        at,
      })
      .execute();
  }
}

/**
 * Puts the lines back in stock, in variant id order as finalize takes it, each a stock adjustment; the
 * store's pages are republished when they show the difference.
 */
async function returnStock(
  trx: Db,
  store: StoreRow,
  by: RefundActor,
  lines: readonly RestockedLine[],
  note: string,
  at: Date,
) {
  const changes: StockChange[] = [];
  for (const line of [...lines].sort((a, b) => a.variant_id - b.variant_id)) {
    // A variant deleted or deactivated since the order has no stock to return: none is sold.
    const variant = await trx
      .updateTable('product_variants')
      .set((eb) => ({ stock: eb('stock', '+', line.quantity) }))
      .where('id', '=', line.variant_id)
      .where('store_id', '=', store.id)
      .where('deactivated_at', 'is', null)
      .returning(['product_id', 'stock', BUNDLE_QUANTITIES])
      .executeTakeFirst();
    if (!variant) continue;
    changes.push({
      before: variant.stock - line.quantity,
      after: variant.stock,
      bundleQuantities: variant.bundle_quantities,
    });
    await trx
      .insertInto('stock_adjustments')
      .values({
        store_id: store.id,
        product_id: variant.product_id,
        variant_id: line.variant_id,
        delta: line.quantity,
        stock_after: variant.stock,
        // The log's reasons are the stock form's; a return is "other", named by its note.
        reason: 'other',
        note,
        operator_id: by.operatorId,
        actor: by.actor,
        at,
      })
      .execute();
  }
  // A sold-out variant back in stock is a catalog change auto-publish hears of (ADR 213).
  await stockChanged(trx, store.id, changes, at);
}

/**
 * Marks the refund done once: refunded total, gift cards credited, stock back, audit entry, the shopper's
 * mail. Named for the operator who asked for it, whoever settles it (their request, a retry, the job).
 */
function settleRefund(deps: AppDeps, store: StoreRow, refund: OrderRefundRow) {
  const { db, clock } = deps;
  const by: RefundActor = { operatorId: refund.operator_id, actor: refund.actor };
  return db.transaction().execute(async (trx) => {
    const order = await storeOrder(trx, store.id, refund.order_id, true);
    if (!order) throw notFound();
    const now = clock.now();
    const settled = await trx
      .updateTable('order_refunds')
      .set({ settled_at: now })
      .where('id', '=', refund.id)
      .where('settled_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    // Settled meanwhile by a concurrent retry of the same refund.
    if (!settled) return;
    const after = await trx
      .updateTable('orders')
      .set((eb) => ({ refunded_cents: eb('refunded_cents', '+', settled.amount_cents) }))
      .where('id', '=', order.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const note = `Refund of order ${orderNumber(order.number)}`;
    await creditGiftCards(trx, by, settled.gift_card_credits, note, now);
    await returnStock(trx, store, by, settled.restocked, note, now);
    const standing = (row: OrderRow) => ({
      refunded: centsToDecimal(row.refunded_cents),
      payment_status: paymentStatus(row),
    });
    await recordAudit(trx, {
      storeId: store.id,
      ...by,
      at: now,
      action: 'order.refund',
      entity: 'order',
      entityId: order.id,
      before: standing(order),
      after: {
        ...standing(after),
        refund: {
          amount: centsToDecimal(settled.amount_cents),
          card: centsToDecimal(settled.card_cents),
          gift_cards: settled.gift_card_credits,
          restocked: settled.restocked,
        },
      },
    });
    await queueRefundNotice(
      trx,
      store,
      after,
      {
        id: settled.id,
        amountCents: settled.amount_cents,
        cardCents: settled.card_cents,
        settledTotalCents: after.refunded_cents,
      },
      deps,
    );
  });
}

/** Refunds part or all of a store's order; answers the order as it is afterwards. */
export async function refundOrder(
  deps: AppDeps,
  by: ConsoleActor,
  orderId: string,
  request: RefundRequest,
): Promise<OrderRow> {
  const { order, refund } = await reserveRefund(deps, by, orderId, request);
  return completeRefund(deps, by.consoleStore, order, refund);
}

/** Asks the provider for a reserved refund (its key makes that safe however often) and settles it. */
async function completeRefund(deps: AppDeps, store: StoreRow, order: OrderRow, refund: OrderRefundRow) {
  await refundCard(deps, order, refund);
  await settleRefund(deps, store, refund);
  deps.mail.wake();
  const after = await storeOrder(deps.db, store.id, order.id);
  if (!after) throw notFound();
  return after;
}

/** The owner's "Try again" on a refund the provider has not confirmed; a settled one is left as it is. */
export async function retryRefund(
  deps: AppDeps,
  by: ConsoleActor,
  orderId: string,
  refundId: number,
): Promise<OrderRow> {
  const store = by.consoleStore;
  const order = await storeOrder(deps.db, store.id, orderId);
  const refund =
    order &&
    (await deps.db
      .selectFrom('order_refunds')
      .selectAll()
      .where('id', '=', refundId)
      .where('order_id', '=', order.id)
      .executeTakeFirst());
  if (!order || !refund) throw notFound();
  if (refund.settled_at) return order;
  return completeRefund(deps, store, order, refund);
}

/** An owed refund is first tried by the job once its own request has had this long to finish. */
const OWED_AFTER_MS = 60_000;
/** And again this long after each try the provider did not confirm. */
const RETRY_OWED_AFTER_MS = 5 * 60_000;

/**
 * The reconciliation job's step (docs/decisions/110-reconciliation-job.md): refunds reserved in the console
 * whose provider answer was lost are asked again and settled. Rows are claimed with `SKIP LOCKED` and their
 * try time moved forward, so instances share the work; a refund met twice is still given back once.
 */
export async function settleOwedRefunds(deps: AppDeps, limit = 100): Promise<{ tried: number; settled: number }> {
  const now = deps.clock.now();
  const claimed = await deps.db
    .updateTable('order_refunds')
    .set({ attempted_at: now })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('order_refunds')
        .select('id')
        .where('settled_at', 'is', null)
        .where('created_at', '<', new Date(now.getTime() - OWED_AFTER_MS))
        .where(notTriedSince(now, RETRY_OWED_AFTER_MS))
        .orderBy('created_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
  let settled = 0;
  for (const refund of claimed) {
    const order = await deps.db.selectFrom('orders').selectAll().where('id', '=', refund.order_id).executeTakeFirst();
    const store =
      order && (await deps.db.selectFrom('stores').selectAll().where('id', '=', order.store_id).executeTakeFirst());
    if (!order || !store) continue;
    try {
      await completeRefund(deps, store, order, refund);
      settled++;
    } catch (error) {
      deps.logger.warn({ err: error, order: order.id, refund: refund.id }, 'owed refund not confirmed yet');
    }
  }
  return { tried: claimed.length, settled };
}
