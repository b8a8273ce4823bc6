import type { Kysely } from 'kysely';

// Images of a variant (docs/decisions/193-variant-images.md): which of its product's images show a
// variant, e.g. the Navy tee's. An image may show several variants (Navy S and Navy M), a variant several
// images; an image of no variant shows the product as a whole. Both sides cascade, so an import that
// rewrites a product's images rewrites these links with them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('product_image_variants')
    .addColumn('image_id', 'integer', (c) => c.notNull().references('product_images.id').onDelete('cascade'))
    .addColumn('variant_id', 'integer', (c) => c.notNull().references('product_variants.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('product_image_variants_pk', ['variant_id', 'image_id'])
    .execute();
  await db.schema.createIndex('product_image_variants_image').on('product_image_variants').column('image_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('product_image_variants').execute();
}
