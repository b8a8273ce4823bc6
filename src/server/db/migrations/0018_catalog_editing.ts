import { sql, type Kysely } from 'kysely';

// The console's catalog editing and gift cards (docs/decisions/199-console-catalog-and-gift-cards.md):
// a version per product for the edit form's optimistic concurrency, a log of stock adjustments, and
// gift cards that can be disabled, with a ledger of what operators did to them (redemptions stay in
// gift_card_debits, written by finalize).
export async function up(db: Kysely<any>): Promise<void> {
  // Bumped by every change of what the edit form shows, whoever writes it (the console or the import),
  // so a form opened before the change is refused instead of overwriting it. The listing columns kept
  // by triggers (migration 0015) and stock are not the form's: an order taking stock leaves it alone.
  await db.schema
    .alterTable('products')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`
    create function products_bump_version() returns trigger language plpgsql as $$
    begin
      if (new.name, new.description_html, new.featured, new.position)
          is distinct from (old.name, old.description_html, old.featured, old.position)
        and new.version = old.version then
        new.version := old.version + 1;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger products_version before update on products
    for each row execute function products_bump_version()`.execute(db);
  // A variant's price is on the form too: its change makes the product's form stale.
  await sql`
    create function variants_bump_product_version() returns trigger language plpgsql as $$
    begin
      if new.price_cents is distinct from old.price_cents then
        update products set version = version + 1 where id = new.product_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger product_variants_price_version after update of price_cents on product_variants
    for each row execute function variants_bump_product_version()`.execute(db);

  await db.schema
    .createTable('stock_adjustments')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('variant_id', 'integer', (c) => c.notNull().references('product_variants.id').onDelete('cascade'))
    .addColumn('delta', 'integer', (c) => c.notNull().check(sql`delta <> 0`))
    .addColumn('stock_after', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) =>
      c.notNull().check(sql`reason in ('received', 'correction', 'damaged', 'other')`),
    )
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id').onDelete('set null'))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stock_adjustments_product')
    .on('stock_adjustments')
    .columns(['product_id', 'id'])
    .execute();

  await db.schema
    .alterTable('gift_cards')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('gift_card_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('gift_card_id', 'uuid', (c) => c.notNull().references('gift_cards.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('issue', 'adjustment', 'disable')`))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('balance_after_cents', 'bigint', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id').onDelete('set null'))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gift_card_events_card').on('gift_card_events').columns(['gift_card_id', 'id']).execute();
  await db.schema.createIndex('gift_card_debits_card').on('gift_card_debits').column('gift_card_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('gift_card_debits_card').execute();
  await db.schema.dropTable('gift_card_events').execute();
  await db.schema.alterTable('gift_cards').dropColumn('disabled_at').dropColumn('created_at').execute();
  await db.schema.dropTable('stock_adjustments').execute();
  await sql`drop function if exists variants_bump_product_version() cascade`.execute(db);
  await sql`drop function if exists products_bump_version() cascade`.execute(db);
  await db.schema.alterTable('products').dropColumn('version').execute();
}
