import type { Kysely } from 'kysely';

// Images uploaded in the console (docs/decisions/201-console-product-images.md): what the upload
// checked (type sniffed from the bytes, pixel size, file size) and when. An imported image has none of
// it (null `uploaded_at`): the console deletes the files it uploaded, never one a catalog names.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('product_images')
    .addColumn('content_type', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('bytes', 'integer')
    .addColumn('uploaded_at', 'timestamptz')
    .execute();
  // "Does anything else show this file?" is asked by URL when an image is deleted.
  await db.schema.createIndex('product_images_url').on('product_images').column('url').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('product_images_url').execute();
  await db.schema
    .alterTable('product_images')
    .dropColumn('content_type')
    .dropColumn('width')
    .dropColumn('height')
    .dropColumn('bytes')
    .dropColumn('uploaded_at')
    .execute();
}
