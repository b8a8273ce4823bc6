import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Collections: a store's named groups of products and bundles, in the store's order, each item in
// the collection's order (docs/decisions/190-collections.md). An item may be in several collections.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('collections')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('collections_store_handle', ['store_id', 'handle'])
    .execute();

  // One row per member: a product or a bundle, never both, each at most once per collection.
  await db.schema
    .createTable('collection_items')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('collection_id', 'integer', (c) => c.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('product_id', 'integer', (c) => c.references('products.id').onDelete('cascade'))
    .addColumn('bundle_id', 'integer', (c) => c.references('bundles.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addCheckConstraint('collection_items_one_member', sql`(product_id is null) <> (bundle_id is null)`)
    .addUniqueConstraint('collection_items_product', ['collection_id', 'product_id'])
    .addUniqueConstraint('collection_items_bundle', ['collection_id', 'bundle_id'])
    .execute();
  // "Which collections is this product in" (related products, breadcrumbs) reads by member.
  await db.schema.createIndex('collection_items_product_id').on('collection_items').column('product_id').execute();
  await db.schema.createIndex('collection_items_bundle_id').on('collection_items').column('bundle_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('collection_items').execute();
  await db.schema.dropTable('collections').execute();
}
