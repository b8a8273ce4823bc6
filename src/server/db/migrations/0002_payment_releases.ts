import { sql, type Kysely } from 'kysely';

// docs/decisions/050-reliability-holds-and-idempotency.md: a payment that cannot become an order (the cart or a gift card changed after the card
// was charged, or the intent was superseded) is released through the provider. The row is written
// under the cart lock before the provider is called, so an intent is either ordered or released,
// never both, and a failed provider call is retried by the next finalize, checkout or webhook.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_releases')
    .addColumn('payment_intent_id', 'text', (c) => c.primaryKey())
    .addColumn('cart_id', 'uuid', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('refund', 'cancel')`))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('released_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // The test processor's own record of money given back (Stripe keeps this on its side).
  await db.schema
    .alterTable('payment_intents')
    .addColumn('refunded_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payment_intents').dropColumn('refunded_cents').execute();
  await db.schema.dropTable('payment_releases').ifExists().execute();
}
