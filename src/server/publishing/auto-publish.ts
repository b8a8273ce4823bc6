/**
 * Auto-publish (docs/decisions/208-preview-and-live-build.md): a store that turned it on is published by
 * itself once its catalog has been quiet for its quiet period. A console catalog write pushes the store's
 * `auto_publish_due_at` back; each instance looks every second for due stores and claims them by clearing
 * the column in one UPDATE, so exactly one instance starts the build; the builds' unique index keeps it one
 * build at a time. A store due while another build runs waits a few seconds and is tried again.
 */
import { sql, type Kysely } from 'kysely';
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
