/**
 * The console's view of a store's orders (docs/decisions/198-console-orders.md): the filtered list
 * and one order with its refunds and history. Rows become answers here and nowhere else.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { ConsoleOrder, ConsoleOrderSummary } from '../../lib/contract/answers.ts';
import type { consoleOrdersQuery } from '../../lib/contract/payloads.ts';
import { centsToDecimal, formatCurrency } from '../../lib/money.ts';
import type { z } from 'zod';
import type { Database, OrderRefundRow, OrderRow } from '../db/schema.ts';
import { escapeLike } from '../catalog/queries.ts';
import { orderNumber } from './reshape.ts';
import { paidCents, paymentStatus, refundableCents } from './order-status.ts';

type Db = Kysely<Database>;
type RefundRow = OrderRefundRow;
export type OrdersQuery = z.output<typeof consoleOrdersQuery>;

export const ORDERS_PAGE_SIZE = 25;
const DAY_MS = 86_400_000;
/** Shown numbers are A-(10000 + serial): "A-10042", "10042" and "42"… only the first two name an order. */
const NUMBER_OFFSET = 10_000;

const email = sql<string>`lower(o.details->'address'->>'email')`;
const name = sql<string>`lower((o.details->'address'->>'first_name') || ' ' || (o.details->'address'->>'last_name'))`;
const paid = sql<number>`(o.total_cents + o.gift_cards_cents)`;

/** The serial of a shown order number, or null when the text cannot be one. */
function serialOf(text: string): number | null {
  const digits = /^(?:A-)?(\d{1,9})$/i.exec(text.trim())?.[1];
  if (!digits) return null;
  const serial = Number(digits) - NUMBER_OFFSET;
  return serial > 0 ? serial : null;
}

const likeText = (text: string) => `%${escapeLike(text.toLowerCase())}%`;

/** One condition per filter given; none is every order of the store. */
function filters(query: OrdersQuery): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (query.q) {
    const serial = serialOf(query.q);
    const like = likeText(query.q);
    where.push(
      serial === null
        ? sql<SqlBool>`(${email} like ${like} or ${name} like ${like})`
        : sql<SqlBool>`(o.number = ${serial} or ${email} like ${like} or ${name} like ${like})`,
    );
  }
  if (query.number !== undefined) {
    const serial = serialOf(query.number);
    where.push(serial === null ? sql<SqlBool>`false` : sql<SqlBool>`o.number = ${serial}`);
  }
  if (query.email) where.push(sql<SqlBool>`${email} = ${query.email}`);
  if (query.from) where.push(sql<SqlBool>`o.created_at >= ${new Date(`${query.from}T00:00:00Z`)}`);
  if (query.to) where.push(sql<SqlBool>`o.created_at < ${new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)}`);
  const status = {
    paid: sql<SqlBool>`o.refunded_cents = 0`,
    partially_refunded: sql<SqlBool>`(o.refunded_cents > 0 and o.refunded_cents < ${paid})`,
    refunded: sql<SqlBool>`(o.refunded_cents > 0 and o.refunded_cents >= ${paid})`,
    fulfilled: sql<SqlBool>`o.fulfilled_at is not null`,
    unfulfilled: sql<SqlBool>`o.fulfilled_at is null`,
  } as const;
  if (query.status) where.push(status[query.status]);
  return where;
}

function summaryOf(row: OrderRow): ConsoleOrderSummary {
  const { address } = row.details;
  return {
    id: row.id,
    number: orderNumber(row.number),
    created_at: row.created_at.toISOString(),
    email: address.email,
    name: `${address.first_name} ${address.last_name}`.trim(),
    paid: centsToDecimal(paidCents(row)),
    refunded: centsToDecimal(row.refunded_cents),
    payment_status: paymentStatus(row),
    fulfillment_status: row.fulfilled_at ? 'fulfilled' : 'unfulfilled',
    items: row.details.cartLineItemsSize,
  };
}

/** A page of the store's orders matching every filter, newest first, and how many match in all. */
export async function listOrders(
  db: Db,
  storeId: number,
  query: OrdersQuery,
): Promise<{ data: ConsoleOrderSummary[]; total: number }> {
  const base = db
    .selectFrom('orders as o')
    .where('o.store_id', '=', storeId)
    .where((eb) => eb.and(filters(query)));
  const [rows, count] = await Promise.all([
    base
      .selectAll('o')
      .orderBy('o.created_at', 'desc')
      .orderBy('o.number', 'desc')
      .limit(ORDERS_PAGE_SIZE)
      .offset((query.page - 1) * ORDERS_PAGE_SIZE)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map(summaryOf), total: count.total };
}

/** The store's order with this id, locked for the transaction when `forUpdate`; undefined when none. */
export function storeOrder(db: Db, storeId: number, orderId: string, forUpdate = false) {
  const query = db.selectFrom('orders').selectAll().where('id', '=', orderId).where('store_id', '=', storeId);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export function orderRefunds(db: Db, orderId: string) {
  return db.selectFrom('order_refunds').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
}

/** Lines a refund gave (or is giving) back to stock. */
export const restockedLineIds = (refunds: readonly RefundRow[]) =>
  new Set(refunds.flatMap((refund) => refund.restocked.map((line) => line.line_id)));

/** What refunds took from the card so far. */
export const refundedCardCents = (refunds: readonly RefundRow[]) => refunds.reduce((sum, r) => sum + r.card_cents, 0);

function historyOf(row: OrderRow, refunds: readonly RefundRow[]): ConsoleOrder['history'] {
  const events: ConsoleOrder['history'] = [
    { at: row.created_at.toISOString(), event: 'placed', summary: `Placed, ${formatCurrency(paidCents(row))} paid` },
    ...refunds.map((refund) => ({
      at: (refund.settled_at ?? refund.created_at).toISOString(),
      event: 'refunded' as const,
      summary: refund.settled_at
        ? `Refunded ${formatCurrency(refund.amount_cents)} by ${refund.actor}`
        : `Refund of ${formatCurrency(refund.amount_cents)} by ${refund.actor} waiting for the payment provider`,
    })),
  ];
  if (row.fulfilled_at)
    events.push({
      at: row.fulfilled_at.toISOString(),
      event: 'fulfilled',
      summary: `Fulfilled: ${row.carrier ?? ''} ${row.tracking_number ?? ''}`.trim(),
    });
  return events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** One order as the console shows it: lines with their variants, amounts, payment, refunds, history. */
export async function orderDetail(db: Db, row: OrderRow): Promise<ConsoleOrder> {
  const refunds = await orderRefunds(db, row.id);
  const variantIds = [...new Set(row.details.cartItems.map((item) => Number(item.product_details.product_variant_id)))];
  const skus = new Map(
    variantIds.length === 0
      ? []
      : (await db.selectFrom('product_variants').select(['id', 'sku']).where('id', 'in', variantIds).execute()).map(
          (v) => [String(v.id), v.sku] as const,
        ),
  );
  const restocked = restockedLineIds(refunds);
  const { details } = row;
  return {
    ...summaryOf(row),
    lines: details.cartItems.map((item) => ({
      id: item.id,
      product_name: item.product_details.name,
      variant_name: item.product_details.variant_name,
      product_variant_id: item.product_details.product_variant_id,
      sku: skus.get(item.product_details.product_variant_id) ?? null,
      quantity: item.quantity,
      unit_price: item.unit_price,
      price: item.price,
      bundle: item.bundle_details ? { id: item.bundle_details.id, name: item.bundle_details.name } : null,
      restocked: restocked.has(item.id),
    })),
    subtotal: centsToDecimal(row.subtotal_cents),
    tax: centsToDecimal(row.tax_cents),
    shipping: centsToDecimal(row.shipping_cents),
    gift_cards_total: centsToDecimal(row.gift_cards_cents),
    card_total: centsToDecimal(row.total_cents),
    refundable: centsToDecimal(refundableCents(row, refunds)),
    payment:
      row.payment_intent_id && (row.provider === 'test' || row.provider === 'stripe')
        ? { provider: row.provider, payment_intent_id: row.payment_intent_id, amount: centsToDecimal(row.total_cents) }
        : null,
    gift_cards: details.giftCards.map((card) => ({ code: card.code, amount: card.amount })),
    address: details.address,
    fulfillment:
      row.fulfilled_at && row.carrier && row.tracking_number
        ? { carrier: row.carrier, tracking_number: row.tracking_number, fulfilled_at: row.fulfilled_at.toISOString() }
        : null,
    refunds: refunds.map((refund) => ({
      id: String(refund.id),
      amount: centsToDecimal(refund.amount_cents),
      card_amount: centsToDecimal(refund.card_cents),
      gift_card_amount: centsToDecimal(refund.amount_cents - refund.card_cents),
      restocked_line_ids: refund.restocked.map((line) => line.line_id),
      actor: refund.actor,
      created_at: refund.created_at.toISOString(),
      settled: refund.settled_at !== null,
    })),
    history: historyOf(row, refunds),
  };
}
