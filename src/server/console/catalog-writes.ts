/**
 * How the console writes the catalog (docs/decisions/206-console-collections-and-bundles.md): one
 * transaction per change, so nothing is half-written; a form saved from the version it was opened at;
 * and this instance's listing index forgotten afterwards, so the shop's lists show the change at once.
 */
import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, notFound } from '../http/errors.ts';
import type { ConsoleEnv } from './routes.ts';

type Db = Kysely<Database>;

/** Runs `write` in a transaction for the request's store, then forgets that store's listing index. */
export async function catalogWrite<T>(
  { db, clock, listings }: Pick<AppDeps, 'db' | 'clock' | 'listings'>,
  c: Context<ConsoleEnv>,
  write: (trx: Db, at: { storeId: number; now: Date }) => Promise<T>,
): Promise<T> {
  const storeId = c.var.consoleStore.id;
  const now = clock.now();
  const result = await db.transaction().execute((trx) => write(trx, { storeId, now }));
  listings.forget(storeId);
  return result;
}

/**
 * Locks a product's, bundle's or collection's row and refuses (409, `stale`) a form opened at another
 * version. Locked first: of two saves made from one version, the second waits here, then sees the new one.
 */
export async function lockVersion(
  trx: Db,
  table: 'products' | 'bundles' | 'collections',
  row: { id: number; storeId: number; version: number },
  stale: string,
): Promise<void> {
  const locked = await trx
    .selectFrom(table)
    .select('version')
    .where('id', '=', row.id)
    .where('store_id', '=', row.storeId)
    .forUpdate()
    .executeTakeFirst();
  if (!locked) throw notFound();
  if (locked.version !== row.version) throw conflict(stale);
}

/** The record a console read found; none is 404 (another store's, or no such record). */
export function found<T>(answer: T | null): { data: T } {
  if (answer === null) throw notFound();
  return { data: answer };
}
