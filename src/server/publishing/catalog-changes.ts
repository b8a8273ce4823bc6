/**
 * What the catalog's writes since a build say changed (migration 0030, docs/decisions/225-publish-from-catalog-changes.md).
 * A build notes where it started (`changesStart`) before it reads anything; the next build asks which products
 * were written since, and lists the whole catalog only when something else was.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The oldest transaction still running (or, with none, the next to start): every write a build's reads may
 * have missed is stamped at least this. Read before the build reads anything.
 */
export async function changesStart(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ start: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as start`.execute(
    db,
  );
  return rows[0]!.start;
}

/** Products whose answers may have changed since `start`, and those of their bundles; null: list the catalog. */
export type CatalogChanges = { products: ReadonlySet<number>; bundles: ReadonlySet<number> } | null;

/**
 * The products and bundles written since `start` (a build's `changesStart`), or null when a write since then
 * was not one of a product's (an image, a collection, a bundle's items, a product added, archived or renamed),
 * or when the changes of that time are no longer kept.
 */
export async function changesSince(db: Kysely<Database>, start: string): Promise<CatalogChanges> {
  const { rows } = await sql<{ shape: boolean; pruned: boolean; products: number[] | null }>`
    select
      exists (select 1 from catalog_changes where xact >= ${start}::xid8 and product_id is null) as shape,
      (select before from catalog_changes_pruned) > ${start}::xid8 as pruned,
      (select array_agg(distinct product_id) from catalog_changes where xact >= ${start}::xid8) as products`.execute(
    db,
  );
  const { shape, pruned, products } = rows[0]!;
  if (shape || pruned) return null;
  const ids = products ?? [];
  // A bundle shows its items' variants (name, price, stock): any item of a changed product's may be one.
  const bundles =
    ids.length === 0
      ? []
      : await db
          .selectFrom('bundle_items as bi')
          .innerJoin('product_variants as v', 'v.id', 'bi.product_variant_id')
          .select('bi.bundle_id')
          .distinct()
          .where(sql<boolean>`v.product_id = any(${ids})`)
          .execute();
  return { products: new Set(ids), bundles: new Set(bundles.map((row) => row.bundle_id)) };
}

/** Forgets the changes before `start`: no build is told unchanged from an older base after this. */
export async function pruneChanges(db: Kysely<Database>, start: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`update catalog_changes_pruned set before = greatest(before, ${start}::xid8)`.execute(trx);
    await sql`delete from catalog_changes where xact < ${start}::xid8`.execute(trx);
  });
}
