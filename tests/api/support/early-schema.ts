/**
 * Databases migrated only part of the way, for tests of what a later migration does to the rows written
 * before it. Such rows go in directly: today's catalog import writes columns that later migrations add.
 */
import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { expect } from 'vitest';
import { openDatabase } from '../../../src/server/db/connect.ts';
import type { Database } from '../../../src/server/db/schema.ts';

/** Runs `use` on a fresh embedded database migrated up to the given migrations only, then closes it. */
export async function withDatabaseUpTo(
  migrations: Record<string, Migration>,
  use: (db: Kysely<Database>) => Promise<void>,
): Promise<void> {
  const db = openDatabase({ dataDir: 'memory://' });
  try {
    const early = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    expect(early.error).toBeUndefined();
    await use(db);
  } finally {
    await db.destroy();
  }
}

/** A store as the first migrations define its row. */
export async function insertEarlyStore(db: Kysely<Database>): Promise<{ id: number }> {
  return db
    .insertInto('stores')
    .values({
      slug: 'early',
      title: 'Early',
      description: null,
      favicon_url: null,
      custom_domain: null,
      restricted: false,
      tax_rate_bps: 0,
      shipping_flat_cents: 0,
      free_shipping_threshold_cents: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}
