import { sql, type Kysely } from 'kysely';

/**
 * Every money column becomes bigint: a cart of a few expensive lines passed 2^31 cents ($21,474,836.48)
 * and its checkout failed with "integer out of range". Both drivers read int8 back as a JS number
 * (connect.ts), exact up to 2^53 cents, so the domain keeps plain numbers. Card payments stay capped
 * by the provider's own limit at checkout (payments/provider.ts).
 */
const MONEY_COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['stores', 'shipping_flat_cents'],
  ['stores', 'free_shipping_threshold_cents'],
  ['product_variants', 'price_cents'],
  ['gift_cards', 'balance_cents'],
  ['gift_cards', 'initial_cents'],
  ['payment_intents', 'amount_cents'],
  ['payment_intents', 'refunded_cents'],
  ['payment_releases', 'amount_cents'],
  ['orders', 'subtotal_cents'],
  ['orders', 'tax_cents'],
  ['orders', 'shipping_cents'],
  ['orders', 'gift_cards_cents'],
  ['orders', 'total_cents'],
  ['gift_card_debits', 'amount_cents'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of MONEY_COLUMNS) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type bigint`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of MONEY_COLUMNS) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type integer`.execute(db);
  }
}
