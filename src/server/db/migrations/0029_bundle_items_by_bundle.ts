import { sql, type Kysely } from 'kysely';

// Every read of bundles' items (a listing page's bundles, a bundle's page, its cart line) asks by bundle, in
// the items' order, and deleting a bundle cascades by it: without an index each read scanned every item of
// every bundle of every store, a cost growing with the catalog for a page that shows a few.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index bundle_items_bundle on bundle_items (bundle_id, position, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index bundle_items_bundle`.execute(db);
}
