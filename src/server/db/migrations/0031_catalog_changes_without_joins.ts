/**
 * The update triggers of migration 0030 told a product's kept columns from the rest by joining a statement's
 * old and new rows. PL/pgSQL plans that join once per connection, for the transition tables of the first
 * statement it sees: after a one-row update it is a nested loop, and a store-wide update later (the import's
 * search text, 10,000 products) compared every row with every other, 15–20 times the import's whole time
 * (docs/decisions/226-catalog-change-triggers-without-joins.md). Grouped by id instead, each row is sorted
 * once whatever the plan. What each trigger records is unchanged.
 */
import { sql, type Kysely } from 'kysely';
import { BUNDLE_KEPT, createJoinedUpdateFunctions, PRODUCT_KEPT } from './0030_catalog_changes.ts';

/** A statement's rows before and after, one `(id, row)` each, as jsonb: what the triggers group by id. */
const WRITTEN = `(select n.id, to_jsonb(n) as whole from new_rows n
      union all select o.id, to_jsonb(o) from old_rows o) as written`;

export async function up(db: Kysely<any>): Promise<void> {
  // A product whose row changed names itself when only kept columns changed, else none (the catalog's shape).
  await sql`
    create or replace function catalog_products_updated() returns trigger language plpgsql as $$
    begin
      insert into catalog_changes (product_id)
        select distinct case when count(distinct whole - ${sql.raw(PRODUCT_KEPT)}) = 1 then id end
        from ${sql.raw(WRITTEN)}
        group by id
        having count(distinct whole) > 1;
      return null;
    end $$`.execute(db);
  await sql`
    create or replace function catalog_bundles_updated() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from ${sql.raw(WRITTEN)}
          group by id having count(distinct whole - ${sql.raw(BUNDLE_KEPT)}) > 1) then
        insert into catalog_changes (product_id) values (null);
      end if;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await createJoinedUpdateFunctions(db);
}
