/** Marking an order fulfilled from the console (docs/decisions/198-console-orders.md). */
import type { OrderRow } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, notFound } from '../http/errors.ts';
import { auditChange } from '../console/audit-change.ts';
import { queueShippedNotice } from '../mail/order-notices.ts';
import { storeOrder } from './console-orders.ts';
import { paymentStatus } from './order-status.ts';
import type { ConsoleActor } from './refunds.ts';

export const FULFIL_MESSAGES = {
  already: 'This order is already marked fulfilled.',
  refunded: 'A refunded order cannot be fulfilled.',
} as const;

/** Records carrier and tracking number once, audited, and mails the shopper in the same transaction. */
export async function fulfilOrder(
  deps: AppDeps,
  by: ConsoleActor,
  orderId: string,
  shipment: { carrier: string; tracking_number: string },
): Promise<OrderRow> {
  const { db, clock } = deps;
  const order = await db.transaction().execute(async (trx) => {
    const before = await storeOrder(trx, by.consoleStore.id, orderId, true);
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
    await auditChange(trx, by, now, {
      action: 'order.fulfil',
      entity: 'order',
      entityId: before.id,
      before: { fulfillment: null },
      after: {
        fulfillment: { carrier: shipment.carrier, tracking_number: shipment.tracking_number, at: now.toISOString() },
      },
    });
    await queueShippedNotice(trx, by.consoleStore, after, deps);
    return after;
  });
  deps.mail.wake();
  return order;
}
