import { sql, type Kysely } from 'kysely';

/**
 * Which products' answers a write may have changed, for the editor's publish (docs/decisions/225-publish-from-catalog-changes.md):
 * every statement writing a row that a product or bundle answer is made of adds rows to `catalog_changes`,
 * stamped with its transaction's id. A write to a product's variants, or to nothing of a product row but the
 * columns triggers keep, names that product; any other catalog write names none (`product_id` null: the
 * catalog's shape may have moved, and the next publish lists it whole). Inserts only: checkout's stock
 * takes add a row and wait on nobody.
 */
const STRUCTURAL_TABLES = [
  'product_images',
  'product_image_variants',
  'collections',
  'collection_items',
  'bundle_items',
];
const EVENTS = ['insert', 'update', 'delete'] as const;

/** Columns kept by triggers (migrations 0015, 0018, 0023), not written as such: they follow a variant's change. */
export const PRODUCT_KEPT = `array['listed_price_cents', 'stocked_variants', 'option_values', 'version']`;
export const BUNDLE_KEPT = `array['listed_price_cents', 'item_count', 'short_items', 'option_values', 'version']`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table catalog_changes (
    xact xid8 not null default pg_current_xact_id(),
    product_id integer
  )`.execute(db);
  await sql`create index catalog_changes_xact on catalog_changes (xact)`.execute(db);
  // Rows older than this were deleted: a publish based on an older build cannot tell what changed.
  await sql`create table catalog_changes_pruned (before xid8 not null)`.execute(db);
  await sql`insert into catalog_changes_pruned values ('0')`.execute(db);

  await sql`
    create function catalog_shape_changed() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from written_rows) then insert into catalog_changes (product_id) values (null); end if;
      return null;
    end $$`.execute(db);
  for (const table of [...STRUCTURAL_TABLES, 'products', 'bundles'])
    for (const event of EVENTS) {
      // Updates of products and bundles are told apart below.
      if (event === 'update' && (table === 'products' || table === 'bundles')) continue;
      await sql`create trigger ${sql.raw(`${table}_catalog_changes_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
        referencing ${sql.raw(event === 'delete' ? 'old' : 'new')} table as written_rows
        for each statement execute function catalog_shape_changed()`.execute(db);
    }

  await sql`
    create function catalog_variants_changed() returns trigger language plpgsql as $$
    begin
      insert into catalog_changes (product_id) select distinct product_id from written_rows;
      return null;
    end $$`.execute(db);
  await sql`
    create function catalog_variants_updated() returns trigger language plpgsql as $$
    begin
      insert into catalog_changes (product_id)
        select product_id from old_rows union select product_id from new_rows;
      return null;
    end $$`.execute(db);
  for (const event of ['insert', 'delete'] as const)
    await sql`create trigger ${sql.raw(`product_variants_catalog_changes_${event}`)} after ${sql.raw(event)} on product_variants
      referencing ${sql.raw(event === 'delete' ? 'old' : 'new')} table as written_rows
      for each statement execute function catalog_variants_changed()`.execute(db);
  await sql`create trigger product_variants_catalog_changes_update after update on product_variants
    referencing old table as old_rows new table as new_rows
    for each statement execute function catalog_variants_updated()`.execute(db);

  await createJoinedUpdateFunctions(db);
  for (const table of ['products', 'bundles'])
    await sql`create trigger ${sql.raw(`${table}_catalog_changes_update`)} after update on ${sql.table(table)}
      referencing old table as old_rows new table as new_rows
      for each statement execute function ${sql.raw(`catalog_${table}_updated`)}()`.execute(db);
}

/**
 * The products' and bundles' update triggers as this migration made them; replaced by migration 0031, whose
 * `down` makes them again (docs/decisions/226-catalog-change-triggers-without-joins.md).
 */
export async function createJoinedUpdateFunctions(db: Kysely<any>): Promise<void> {
  // A product row whose columns other than the kept ones are as they were names the product; any other change
  // of it, none. Listed by what is left out, so a column added later counts as the shape's.
  await sql`
    create or replace function catalog_products_updated() returns trigger language plpgsql as $$
    begin
      insert into catalog_changes (product_id)
        select distinct case when (to_jsonb(n) - ${sql.raw(PRODUCT_KEPT)}) = (to_jsonb(o) - ${sql.raw(PRODUCT_KEPT)})
          then n.id end
        from new_rows n join old_rows o on o.id = n.id
        where to_jsonb(n) <> to_jsonb(o);
      return null;
    end $$`.execute(db);
  // A bundle's kept columns follow its items' variants, whose change names their products: only another change counts.
  await sql`
    create or replace function catalog_bundles_updated() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from new_rows n join old_rows o on o.id = n.id
          where (to_jsonb(n) - ${sql.raw(BUNDLE_KEPT)}) <> (to_jsonb(o) - ${sql.raw(BUNDLE_KEPT)})) then
        insert into catalog_changes (product_id) values (null);
      end if;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Dropping the functions drops their triggers.
  for (const fn of [
    'catalog_shape_changed',
    'catalog_variants_changed',
    'catalog_variants_updated',
    'catalog_products_updated',
    'catalog_bundles_updated',
  ])
    await sql`drop function ${sql.raw(fn)}() cascade`.execute(db);
  await sql`drop table catalog_changes_pruned`.execute(db);
  await sql`drop table catalog_changes`.execute(db);
}
