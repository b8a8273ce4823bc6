/**
 * Auto-publish (docs/decisions/208-preview-and-live-build.md): a store that turned it on is published by
 * itself once its catalog has been quiet for its quiet period. A console catalog write pushes the store's
 * `auto_publish_due_at` back; each instance looks every second for due stores and claims them by clearing
 * the column in one UPDATE, so exactly one instance starts the build; the builds' unique index keeps it one
 * build at a time. A store due while another build runs waits a few seconds and is tried again.
 * Imports and stock that orders take or give back count too, the latter only when the pages would show it
 * (docs/decisions/213-publishing-for-editors-and-shoppers.md).
 */
import { sql, type Kysely } from 'kysely';
import { stockChangeShows } from '../../lib/catalog/stock-label.ts';
import type { Database } from '../db/schema.ts';
import type { Clock, Logger } from '../http/context.ts';
import type { Publishing } from './publishing.ts';

/** Who a build started by auto-publish was requested by. */
export const AUTO_PUBLISHER = 'auto-publish';
const TICK_MS = 1000;
/** How long a due store waits when a build is already running. */
const RETRY_MS = 5000;

/** A catalog change of the store: publish after its quiet period, counted from now (no-op when off). */
export async function catalogChanged(db: Kysely<Database>, storeId: number, now: Date): Promise<void> {
  await db
    .updateTable('stores')
    .set({ auto_publish_due_at: sql<Date>`${now}::timestamptz + auto_publish_quiet_seconds * interval '1 second'` })
    .where('id', '=', storeId)
    .where('auto_publish', '=', true)
    .execute();
}

/** A variant's stock before and after an order took or gave back some, and the quantities bundles hold it in. */
export type StockChange = { before: number; after: number; bundleQuantities: readonly number[] | null };

/**
 * The quantities in which bundles hold a variant, for the `returning` of an UPDATE of `product_variants`:
 * whether a bundle can be bought depends on them (`stockChangeShows`).
 */
export const BUNDLE_QUANTITIES = sql<number[] | null>`(
  select array_agg(distinct bi.quantity) from bundle_items bi where bi.product_variant_id = product_variants.id
)`.as('bundle_quantities');

/**
 * Stock taken or given back by orders (finalize, refunds): a catalog change only when the store's pages
 * show it, so a sale that leaves everything buyable writes nothing more.
 */
export async function stockChanged(
  db: Kysely<Database>,
  storeId: number,
  changes: readonly StockChange[],
  now: Date,
): Promise<void> {
  if (changes.some((change) => stockChangeShows(change.before, change.after, change.bundleQuantities ?? [])))
    await catalogChanged(db, storeId, now);
}

/** Starts one build for the stores whose quiet period ended; answers the build id, or null. */
export async function publishDueStores(
  db: Kysely<Database>,
  publishing: Publishing,
  clock: Clock,
): Promise<string | null> {
  const now = clock.now();
  const due = await db
    .updateTable('stores')
    .set({ auto_publish_due_at: null })
    .where('auto_publish_due_at', '<=', now)
    .returning('id')
    .execute();
  if (due.length === 0) return null;
  // Builds are whole-site snapshots: one build publishes every due store.
  const started = await publishing.start({ requestedBy: AUTO_PUBLISHER, storeId: due[0]!.id });
  if (started.started) return started.id;
  await db
    .updateTable('stores')
    .set({ auto_publish_due_at: new Date(now.getTime() + RETRY_MS) })
    .where(
      'id',
      'in',
      due.map((row) => row.id),
    )
    .execute();
  return null;
}

/** Looks for due stores every second until stopped. */
export function startAutoPublish(
  db: Kysely<Database>,
  publishing: Publishing,
  clock: Clock,
  logger: Logger,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = publishDueStores(db, publishing, clock).catch((error: unknown) =>
      logger.error({ err: error }, 'auto-publish failed'),
    );
  }, TICK_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
