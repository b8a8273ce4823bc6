/** Marking an order fulfilled from the console (docs/decisions/198-console-orders.md). */
import type { OrderRow, StoreRow } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, notFound } from '../http/errors.ts';
import { recordAudit } from '../console/audit.ts';
import { queueShippedNotice } from '../mail/order-notices.ts';
import { storeOrder } from './console-orders.ts';
import { paymentStatus } from './order-status.ts';
import type { Actor } from './refunds.ts';

export const FULFIL_MESSAGES = {
  already: 'This order is already marked fulfilled.',
  refunded: 'A refunded order cannot be fulfilled.',
} as const;

/** Records carrier and tracking number once, audited, and mails the shopper in the same transaction. */
export async function fulfilOrder(
  deps: AppDeps,
  store: StoreRow,
  orderId: string,
  actor: Actor,
  shipment: { carrier: string; tracking_number: string },
): Promise<OrderRow> {
  const { db, clock } = deps;
  const order = await db.transaction().execute(async (trx) => {
    const before = await storeOrder(trx, store.id, orderId, true);
    if (!before) throw notFound();
    if (before.fulfilled_at) throw conflict(FULFIL_MESSAGES.already);
    if (paymentStatus(before) === 'refunded') throw conflict(FULFIL_MESSAGES.refunded);
    const now = clock.now();
    const after = await trx
      .updateTable('orders')
      .set({ fulfilled_at: now, carrier: shipment.carrier, tracking_number: shipment.tracking_number })
      .where('id', '=', before.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      storeId: store.id,
      operatorId: actor.operatorId,
      actor: actor.email,
      action: 'order.fulfil',
      entity: 'order',
      entityId: before.id,
      before: { fulfillment: null },
      after: {
        fulfillment: { carrier: shipment.carrier, tracking_number: shipment.tracking_number, at: now.toISOString() },
      },
      at: now,
    });
    await queueShippedNotice(trx, store, after, deps);
    return after;
  });
  deps.mail.wake();
  return order;
}
