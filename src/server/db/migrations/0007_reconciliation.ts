import { sql, type Kysely } from 'kysely';

// The reconciliation job (docs/decisions/110-reconciliation-job.md) and signed cart tokens
// (docs/decisions/111-signed-cart-tokens-and-client-addresses.md).
export async function up(db: Kysely<any>): Promise<void> {
  // Secrets every API instance must share, generated once by the first instance that needs one
  // (the cart token key, when CART_TOKEN_SECRET is not configured).
  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // When the job last asked the provider about the cart's payment: a claim several instances see,
  // and the back-off that keeps abandoned checkouts from being asked about every minute.
  await db.schema.alterTable('carts').addColumn('payment_checked_at', 'timestamptz').execute();
  // Only carts in checkout, and on columns a shopper's cart write never changes (updated_at is left
  // out so those writes stay HOT updates).
  await db.schema
    .createIndex('carts_payment_pending')
    .on('carts')
    .column('payment_checked_at')
    .where(sql.ref('payment_intent_id'), 'is not', null)
    .execute();

  // When the job last tried to give an owed release back: claimed the same way.
  await db.schema.alterTable('payment_releases').addColumn('attempted_at', 'timestamptz').execute();
  await db.schema
    .createIndex('payment_releases_owed')
    .on('payment_releases')
    .column('cart_id')
    .where(sql.ref('released_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payment_releases_owed').ifExists().execute();
  await db.schema.alterTable('payment_releases').dropColumn('attempted_at').execute();
  await db.schema.dropIndex('carts_payment_pending').ifExists().execute();
  await db.schema.alterTable('carts').dropColumn('payment_checked_at').execute();
  await db.schema.dropTable('app_secrets').ifExists().execute();
}
