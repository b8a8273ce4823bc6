import { sql, type Kysely } from 'kysely';

// Stock that never oversells (docs/decisions/090-stock-taken-at-finalize.md).
export async function up(db: Kysely<any>): Promise<void> {
  // The product page says "Only N left" at or below this many (0: never); a store setting.
  await db.schema
    .alterTable('stores')
    .addColumn('low_stock_threshold', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(5)
        .check(sql`low_stock_threshold >= 0`),
    )
    .execute();

  // A checkout that raced a finalize on PostgreSQL could write the spent intent back onto the
  // ordered cart, after which every checkout of that cart answered "Your cart is empty." Checkout no
  // longer can; carts left that way move to their next round here, as finalize would have left them.
  await sql`
    update carts set payment_intent_id = null, intent_seq = intent_seq + 1
    where payment_intent_id is not null
      and exists (select 1 from orders where orders.payment_intent_id = carts.payment_intent_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stores').dropColumn('low_stock_threshold').execute();
}
