import { sql, type Kysely } from 'kysely';

// Tax and shipping by destination (docs/decisions/180-tax-and-shipping-by-destination.md): store
// settings read with the store itself, so pricing a cart costs no extra query.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stores')
    .addColumn('tax_rates', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('shipping_zones', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stores').dropColumn('tax_rates').dropColumn('shipping_zones').execute();
}
