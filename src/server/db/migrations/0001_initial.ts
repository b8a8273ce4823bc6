import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not the current Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stores')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('favicon_url', 'text')
    .addColumn('custom_domain', 'text', (c) => c.unique())
    .addColumn('restricted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('tax_rate_bps', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`tax_rate_bps >= 0 and tax_rate_bps <= 10000`),
    )
    .addColumn('shipping_flat_cents', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`shipping_flat_cents >= 0`),
    )
    .addColumn('free_shipping_threshold_cents', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('allowed_recipients')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addUniqueConstraint('allowed_recipients_store_email', ['store_id', 'email'])
    .execute();

  await db.schema
    .createTable('allowed_domain_tokens')
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('allowed_domain_tokens_pk', ['store_id', 'token'])
    .execute();

  await db.schema
    .createTable('browser_tokens')
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'uuid', (c) => c.notNull().references('allowed_recipients.id').onDelete('cascade'))
    .addColumn('verified_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('browser_tokens_pk', ['store_id', 'token'])
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('featured', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('option_names', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_image_id', 'integer')
    .addUniqueConstraint('products_store_external', ['store_id', 'external_id'])
    .execute();

  await db.schema
    .createTable('product_images')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('alt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('product_images_product').on('product_images').column('product_id').execute();

  await db.schema
    .createTable('product_variants')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('options', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn('stock', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`stock >= 0`),
    )
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('product_variants_product_sku', ['product_id', 'sku'])
    .execute();
  await db.schema.createIndex('product_variants_product').on('product_variants').column('product_id').execute();

  await db.schema
    .createTable('bundles')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('featured', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('bundles_store_external', ['store_id', 'external_id'])
    .execute();

  await db.schema
    .createTable('bundle_items')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('bundle_id', 'integer', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
    .addColumn('product_variant_id', 'integer', (c) =>
      c.notNull().references('product_variants.id').onDelete('cascade'),
    )
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('carts')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('address', 'jsonb')
    .addColumn('payment_intent_id', 'text')
    .addColumn('intent_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_order_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('carts_store_token', ['store_id', 'token'])
    .execute();

  await db.schema
    .createTable('cart_lines')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('cart_id', 'uuid', (c) => c.notNull().references('carts.id').onDelete('cascade'))
    .addColumn('product_variant_id', 'integer', (c) =>
      c.notNull().references('product_variants.id').onDelete('cascade'),
    )
    .addColumn('bundle_id', 'integer', (c) => c.references('bundles.id').onDelete('cascade'))
    .addColumn('bundle_quantity', 'integer')
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    // The lines of one bundle are inserted together (same created_at); position keeps the bundle's item order.
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('cart_lines_cart').on('cart_lines').column('cart_id').execute();

  await db.schema
    .createTable('gift_cards')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    // The CHECK is the last line of defence: no bug or race can take a balance below zero.
    .addColumn('balance_cents', 'integer', (c) => c.notNull().check(sql`balance_cents >= 0`))
    .addColumn('initial_cents', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addUniqueConstraint('gift_cards_store_code', ['store_id', 'code'])
    .execute();

  await db.schema
    .createTable('cart_gift_cards')
    .addColumn('cart_id', 'uuid', (c) => c.notNull().references('carts.id').onDelete('cascade'))
    .addColumn('gift_card_id', 'uuid', (c) => c.notNull().references('gift_cards.id').onDelete('cascade'))
    .addColumn('applied_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .addPrimaryKeyConstraint('cart_gift_cards_pk', ['cart_id', 'gift_card_id'])
    .execute();

  await db.schema
    .createTable('payment_intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('cart_id', 'uuid', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('number', 'serial', (c) => c.notNull().unique())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id'))
    .addColumn('cart_id', 'uuid', (c) => c.notNull())
    // One order per payment: the database refuses a second one whatever the code does.
    .addColumn('payment_intent_id', 'text', (c) => c.unique())
    .addColumn('provider', 'text')
    .addColumn('subtotal_cents', 'integer', (c) => c.notNull())
    .addColumn('tax_cents', 'integer', (c) => c.notNull())
    .addColumn('shipping_cents', 'integer', (c) => c.notNull())
    .addColumn('gift_cards_cents', 'integer', (c) => c.notNull())
    .addColumn('total_cents', 'integer', (c) => c.notNull().check(sql`total_cents >= 0`))
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('gift_card_debits')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('gift_card_id', 'uuid', (c) => c.notNull().references('gift_cards.id'))
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('orders.id'))
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('gift_card_debits_card_order', ['gift_card_id', 'order_id'])
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('dev_outbox')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'webhook_events',
    'dev_outbox',
    'rate_limits',
    'gift_card_debits',
    'orders',
    'payment_intents',
    'cart_gift_cards',
    'gift_cards',
    'cart_lines',
    'carts',
    'bundle_items',
    'bundles',
    'product_variants',
    'product_images',
    'products',
    'browser_tokens',
    'allowed_domain_tokens',
    'allowed_recipients',
    'stores',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
