import { sql, type Kysely } from 'kysely';

// The console's orders (docs/decisions/198-console-orders.md): fulfilment on the order, refunds in a
// table of their own (each a provider call with its own idempotency key), and the test processor's
// record of the refunds it took, so a retried partial refund gives back nothing more.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('orders')
    // What the provider gave back (settled refunds); a refund still owed is counted from its row.
    .addColumn('refunded_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fulfilled_at', 'timestamptz')
    .addColumn('carrier', 'text')
    .addColumn('tracking_number', 'text')
    .execute();
  await sql`alter table orders add constraint orders_refund_within_paid
    check (refunded_cents >= 0 and refunded_cents <= total_cents + gift_cards_cents)`.execute(db);
  // The console lists a store's orders newest first.
  await db.schema.createIndex('orders_store_created').on('orders').columns(['store_id', 'created_at']).execute();

  await db.schema
    .createTable('order_refunds')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    // The console form's key: a retried or double-clicked refund finds its first attempt.
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('card_cents', 'bigint', (c) => c.notNull())
    // [{gift_card_id, amount_cents}]: the part credited back to the gift cards that paid.
    .addColumn('gift_card_credits', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // [{line_id, variant_id, quantity}]: the lines whose stock comes back.
    .addColumn('restocked', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id').onDelete('set null'))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    // Null while the provider's answer is owed: the amount stays reserved, a retry settles it.
    .addColumn('settled_at', 'timestamptz')
    .addUniqueConstraint('order_refunds_key', ['order_id', 'idempotency_key'])
    .execute();

  await db.schema
    .createTable('test_processor_refunds')
    .addColumn('idempotency_key', 'text', (c) => c.primaryKey())
    .addColumn('payment_intent_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('test_processor_refunds').execute();
  await db.schema.dropTable('order_refunds').execute();
  await db.schema.dropIndex('orders_store_created').execute();
  await sql`alter table orders drop constraint orders_refund_within_paid`.execute(db);
  await db.schema
    .alterTable('orders')
    .dropColumn('refunded_cents')
    .dropColumn('fulfilled_at')
    .dropColumn('carrier')
    .dropColumn('tracking_number')
    .execute();
}
