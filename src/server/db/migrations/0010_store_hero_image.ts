import type { Kysely } from 'kysely';

// The store front's hero image (docs/decisions/184-responsive-image-derivatives.md): a store setting
// like its favicon; a store without one shows no hero image.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stores').addColumn('hero_image_url', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stores').dropColumn('hero_image_url').execute();
}
