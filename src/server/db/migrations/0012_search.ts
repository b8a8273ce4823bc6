import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Search (docs/decisions/191-search-engine.md): pg_trgm matches words with one typo, and a trigram
// index on each product's and bundle's text keeps a query on 10,000 products fast. The text is
// written by the catalog import (src/server/catalog/search-text.ts); here it is filled once.
export async function up(db: Kysely<any>): Promise<void> {
  // Into `public`, once per database: every schema on the search path sees it, and a schema dropped
  // later (one per API test file) does not take it along. The lock keeps two schemas migrating at the
  // same time from both creating it.
  await sql`select pg_advisory_xact_lock(191)`.execute(db);
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  for (const table of ['products', 'bundles']) {
    await db.schema
      .alterTable(table)
      .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await sql`create index ${sql.id(`${table}_search_text`)} on ${sql.table(table)} using gin (search_text gin_trgm_ops)`.execute(
      db,
    );
  }
  await sql`update products p set search_text = lower(p.name || ' ' || regexp_replace(p.description_html, '<[^>]*>|&[#a-z0-9]+;', ' ', 'gi') || ' ' || coalesce((
    select string_agg(v.sku || ' ' || v.name || ' ' || coalesce((select string_agg(o.value, ' ') from jsonb_each_text(v.options) o), ''), ' ')
    from product_variants v where v.product_id = p.id), ''))`.execute(db);
  await sql`update bundles b set search_text = lower(b.name || ' ' || regexp_replace(b.description_html, '<[^>]*>|&[#a-z0-9]+;', ' ', 'gi'))`.execute(
    db,
  );
}

// Other schemas of the database may use the extension: it stays installed.
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['products', 'bundles']) await db.schema.alterTable(table).dropColumn('search_text').execute();
}
