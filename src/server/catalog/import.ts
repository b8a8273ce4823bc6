import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Catalog, CatalogHead, CatalogProduct } from './catalog-format.ts';
import { PRODUCTS_PER_BATCH, writeProducts, type ProductIds } from './import-products.ts';
import { refreshSearchText } from './search-text.ts';
import { followBundleItems } from '../carts/cart-changes.ts';
import { catalogChanged } from '../publishing/auto-publish.ts';
import { randomUUID } from 'node:crypto';

import { sanitizeDescription } from './sanitize-description.ts';

// Where the console's routes and tests have always found it.
export { sanitizeDescription };

export type ImportSummary = {
  store: string;
  products: number;
  bundles: number;
  collections: number;
  giftCards: number;
};

/**
 * Loads one store's catalog in one transaction: the store, products (matched by their catalog id),
 * variants (by sku), bundles, collections (by handle, their members replaced) and gift cards.
 * Re-importing updates in place; gift card balances that already exist are left alone. A store with
 * auto-publish on is published after its quiet period, counted from `now` (docs/decisions/213-publishing-for-editors-and-shoppers.md).
 */
export function importCatalog(db: Kysely<Database>, catalog: Catalog, now: Date = new Date()): Promise<ImportSummary> {
  return importCatalogProducts(db, catalog, catalog.products, now);
}

/**
 * importCatalog with the products given one at a time, as a catalog file is read
 * (catalog-file.ts): only their ids stay in memory (docs/decisions/214-scale-and-contention.md).
 */
export async function importCatalogProducts(
  db: Kysely<Database>,
  catalog: CatalogHead,
  products: Iterable<CatalogProduct> | AsyncIterable<CatalogProduct>,
  now: Date = new Date(),
): Promise<ImportSummary> {
  const summary = await db.transaction().execute(async (trx) => {
    // The listing columns are counted once at the end, not after each product (migration 0015).
    await sql`select set_config('storefront.listings_deferred', 'on', true)`.execute(trx);
    const s = catalog.store;
    const storeValues = {
      slug: s.slug,
      title: s.title,
      description: s.description,
      favicon_url: s.favicon_url,
      hero_image_url: s.hero_image_url,
      custom_domain: s.custom_domain,
      restricted: s.restricted,
      tax_rate_bps: s.tax_rate_bps,
      shipping_flat_cents: s.shipping_flat,
      free_shipping_threshold_cents: s.free_shipping_threshold,
      policies: JSON.stringify(
        Object.fromEntries(Object.entries(s.policies).map(([kind, html]) => [kind, sanitizeDescription(html)])),
      ),
      contact_email: s.contact_email,
      tax_rates: JSON.stringify(s.tax_rates),
      shipping_zones: JSON.stringify(
        s.shipping_zones.map((zone) => ({
          name: zone.name,
          countries: zone.countries,
          rate_cents: zone.rate,
          free_shipping_threshold_cents: zone.free_shipping_threshold,
        })),
      ),
      low_stock_threshold: s.low_stock_threshold,
    };
    const store = await trx
      .insertInto('stores')
      .values(storeValues)
      .onConflict((oc) => oc.column('slug').doUpdateSet(storeValues))
      .returning('id')
      .executeTakeFirstOrThrow();
    await catalogChanged(trx, store.id, now);

    for (const r of s.allowed_recipients) {
      await trx
        .insertInto('allowed_recipients')
        .values({ id: r.uuid, store_id: store.id, email: r.email })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    for (const token of s.allowed_domain_tokens) {
      await trx
        .insertInto('allowed_domain_tokens')
        .values({ store_id: store.id, token })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }

    const variantIds = new Map<string, number>();
    const productIds = new Map<string, number>();
    const bundleIds = new Map<string, number>();
    const ids: ProductIds = { storeId: store.id, products: productIds, variants: variantIds };
    let batch: { product: CatalogProduct; position: number }[] = [];
    let position = 0;
    for await (const product of products) {
      // A catalog id twice in one statement cannot be upserted: the batch so far is written first.
      if (batch.length === PRODUCTS_PER_BATCH || batch.some((b) => b.product.id === product.id)) {
        await writeProducts(trx, batch, ids);
        batch = [];
      }
      batch.push({ product, position: position++ });
    }
    await writeProducts(trx, batch, ids);

    for (const [position, b] of catalog.bundles.entries()) {
      const values = {
        store_id: store.id,
        external_id: b.id,
        name: b.name,
        description_html: sanitizeDescription(b.description_html),
        featured: b.featured,
        position,
      };
      const bundle = await trx
        .insertInto('bundles')
        .values(values)
        .onConflict((oc) => oc.columns(['store_id', 'external_id']).doUpdateSet(values))
        .returning('id')
        .executeTakeFirstOrThrow();
      bundleIds.set(b.id, bundle.id);
      const itemsBefore = await trx
        .deleteFrom('bundle_items')
        .where('bundle_id', '=', bundle.id)
        .returning(['product_variant_id', 'quantity', 'position'])
        .execute();
      const items = b.items.map((item, i) => {
        const variantId = variantIds.get(`${item.product}/${item.sku}`);
        if (!variantId)
          throw new Error(`Bundle ${b.id}: no product ${item.product} with sku ${item.sku} in this catalog`);
        return { bundle_id: bundle.id, product_variant_id: variantId, quantity: item.quantity, position: i };
      });
      await trx.insertInto('bundle_items').values(items).execute();
      const itemsOf = (list: readonly { product_variant_id: number; quantity: number; position: number }[]) =>
        [...list]
          .sort((x, y) => x.position - y.position)
          .map((item) => `${item.product_variant_id}×${item.quantity}`)
          .join();
      if (itemsOf(itemsBefore) !== itemsOf(items)) await followBundleItems(trx, bundle.id);
    }

    for (const [position, c] of catalog.collections.entries()) {
      const values = { store_id: store.id, handle: c.handle, title: c.title, description: c.description, position };
      const collection = await trx
        .insertInto('collections')
        .values(values)
        .onConflict((oc) => oc.columns(['store_id', 'handle']).doUpdateSet(values))
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.deleteFrom('collection_items').where('collection_id', '=', collection.id).execute();
      // parseCatalog checked that every member is in this catalog.
      const items = c.items.map((item, i) => ({
        collection_id: collection.id,
        product_id: 'product' in item ? productIds.get(item.product)! : null,
        bundle_id: 'bundle' in item ? bundleIds.get(item.bundle)! : null,
        position: i,
      }));
      if (items.length > 0) await trx.insertInto('collection_items').values(items).execute();
    }

    for (const g of catalog.gift_cards) {
      await trx
        .insertInto('gift_cards')
        .values({
          id: randomUUID(),
          store_id: store.id,
          code: g.code,
          balance_cents: g.balance,
          initial_cents: g.balance,
          expires_at: g.expires_at ? new Date(g.expires_at) : null,
        })
        .onConflict((oc) => oc.columns(['store_id', 'code']).doNothing())
        .execute();
    }

    await refreshSearchText(trx, store.id);
    await sql`select refresh_store_listings(${store.id})`.execute(trx);
    await sql`select set_config('storefront.listings_deferred', 'off', true)`.execute(trx);

    return {
      store: s.slug,
      products: position,
      bundles: catalog.bundles.length,
      collections: catalog.collections.length,
      giftCards: catalog.gift_cards.length,
    };
  });
  await analyzeCatalog(db);
  return summary;
}

/**
 * Fresh statistics for the tables the import wrote, after its commit (inside it PostgreSQL does not
 * count the rows it is writing); left to autovacuum (never, on PGlite), the planner works from the
 * sizes of an empty catalog: a freshly imported catalog was searched up to 30 times slower
 * (docs/decisions/191-search-engine.md), and a page's bundle items were joined by reading every
 * variant (4 ms against 0.6 ms for 10,000 products; docs/decisions/200-listing-index.md).
 */
async function analyzeCatalog(db: Kysely<Database>): Promise<void> {
  await sql`analyze products, bundles, product_variants, bundle_items, product_images, collection_items`.execute(db);
}
