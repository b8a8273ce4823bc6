import type { Kysely } from 'kysely';
import type { Database, OrderRow } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { PaymentProviderError, type ProviderIntent } from '../payments/provider.ts';
import { notTriedSince } from '../reconciliation/not-tried-since.ts';

type Db = Kysely<Database>;

/**
 * Releasing a payment that will never become an order: a paid intent is refunded, an open one is
 * canceled. The decision is a `payment_releases` row written under the cart lock (finalize checks
 * for it under the same lock before it creates an order), so an intent is ordered or released,
 * never both; the provider call comes after the commit with a fixed idempotency key, and a call
 * that failed is owed and retried by the next finalize, checkout, webhook or sweep.
 */

export async function releaseOf(db: Db, intentId: string) {
  return db.selectFrom('payment_releases').selectAll().where('payment_intent_id', '=', intentId).executeTakeFirst();
}

/**
 * Records that this intent is to be given back, unless an order already holds it (then that order
 * is returned). Also detaches it from the cart so the next checkout opens a fresh intent.
 */
export async function recordRelease(
  db: Db,
  cartId: string,
  intent: ProviderIntent,
  reason: string,
): Promise<OrderRow | null> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('carts').select('id').where('id', '=', cartId).forUpdate().executeTakeFirst();
    const order = await trx
      .selectFrom('orders')
      .selectAll()
      .where('payment_intent_id', '=', intent.id)
      .executeTakeFirst();
    if (order) return order;
    await trx
      .insertInto('payment_releases')
      .values({
        payment_intent_id: intent.id,
        cart_id: cartId,
        provider: intent.provider,
        kind: intent.status === 'succeeded' ? 'refund' : 'cancel',
        amount_cents: intent.amountCents,
        reason,
        released_at: null,
      })
      .onConflict((oc) => oc.column('payment_intent_id').doNothing())
      .execute();
    await trx
      .updateTable('carts')
      .set((eb) => ({ payment_intent_id: null, intent_seq: eb('intent_seq', '+', 1) }))
      .where('id', '=', cartId)
      .where('payment_intent_id', '=', intent.id)
      .execute();
    return null;
  });
}

/**
 * Makes the provider give back a recorded release. Returns false when the provider failed (the
 * release stays owed); provider errors never reach the shopper from here.
 */
export async function settleRelease(
  deps: Pick<AppDeps, 'db' | 'payments' | 'clock' | 'logger'>,
  intentId: string,
): Promise<boolean> {
  const { db, payments, clock, logger } = deps;
  const release = await releaseOf(db, intentId);
  if (!release || release.released_at) return true;
  if (!payments) return false;
  try {
    // The live state decides: an intent recorded as open may have been paid since.
    const live = await payments.retrieveIntent(intentId);
    if (live?.status === 'succeeded') await payments.refundIntent(intentId, `refund-${intentId}`);
    else if (live && (live.status === 'requires_payment_method' || live.status === 'requires_confirmation'))
      await payments.cancelIntent(intentId, `cancel-${intentId}`);
    else if (live?.status === 'processing') return false; // settles once the provider decides
    await db
      .updateTable('payment_releases')
      .set({ released_at: clock.now(), kind: live?.status === 'succeeded' ? 'refund' : 'cancel' })
      .where('payment_intent_id', '=', intentId)
      .execute();
    logger.info(
      { intent: intentId, kind: live?.status === 'succeeded' ? 'refund' : 'cancel', reason: release.reason },
      'payment released',
    );
    return true;
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    logger.warn({ err: error, intent: intentId }, 'payment release owed: provider failed');
    return false;
  }
}

/** An owed release is tried again by reconciliation at most this often. */
const RETRY_OWED_AFTER_MS = 30_000;

/**
 * Retries owed releases (reconciliation runs it, so none waits for a shopper). Each is claimed first
 * (`attempted_at`, `FOR UPDATE SKIP LOCKED`), so instances running this at once never try the same one.
 */
export async function settleOwedReleases(
  deps: Pick<AppDeps, 'db' | 'payments' | 'clock' | 'logger'>,
  limit = 100,
): Promise<{ tried: number; settled: number }> {
  const now = deps.clock.now();
  const claimed = await deps.db
    .updateTable('payment_releases')
    .set({ attempted_at: now })
    .where('payment_intent_id', 'in', (eb) =>
      eb
        .selectFrom('payment_releases')
        .select('payment_intent_id')
        .where('released_at', 'is', null)
        .where(notTriedSince(now, RETRY_OWED_AFTER_MS))
        .orderBy('created_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning('payment_intent_id')
    .execute();
  let settled = 0;
  for (const { payment_intent_id } of claimed) if (await settleRelease(deps, payment_intent_id)) settled++;
  return { tried: claimed.length, settled };
}
