import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// A store's own policy pages and contact address (docs/decisions/182-store-policies.md): store
// settings, read with the store, shown in every store page's footer.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stores')
    .addColumn('policies', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('contact_email', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stores').dropColumn('policies').dropColumn('contact_email').execute();
}
