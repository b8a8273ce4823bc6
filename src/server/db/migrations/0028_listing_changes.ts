import { sql, type Kysely } from 'kysely';

/**
 * What the listing index reads (docs/decisions/200-listing-index.md) — products, bundles and collection
 * members — moves `listing_changes` on every statement that wrote a row of them, so an instance asks
 * one number whether its index is still the catalog's instead of reading the store again. A sequence
 * takes no row lock: writers never wait on each other for it, and a rolled-back write that moved it
 * only costs one read more. An order taking stock writes none of these rows unless a product or bundle
 * sells out or comes back (migration 0015's counters), so checkout leaves the number alone.
 */
const TABLES = ['products', 'bundles', 'collection_items'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence listing_changes`.execute(db);
  // A statement-level trigger fires for statements that wrote no row too (migration 0015's counters
  // run an update on every stock change): only one whose transition table holds rows counts.
  await sql`
    create function listing_changed() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from written_rows) then perform nextval('listing_changes'); end if;
      return null;
    end $$`.execute(db);
  for (const table of TABLES)
    for (const event of EVENTS)
      await sql`create trigger ${sql.raw(`${table}_listing_changed_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
        referencing ${sql.raw(event === 'delete' ? 'old' : 'new')} table as written_rows
        for each statement execute function listing_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Dropping the function drops its triggers.
  await sql`drop function listing_changed() cascade`.execute(db);
  await sql`drop sequence listing_changes`.execute(db);
}
