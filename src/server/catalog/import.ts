import { sql, type Kysely } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import type { Database } from '../db/schema.ts';
import type { Catalog, CatalogHead, CatalogProduct } from './catalog-format.ts';
import { refreshSearchText } from './search-text.ts';
import { randomUUID } from 'node:crypto';

/** Product descriptions are shown as HTML: keep formatting, drop scripts, handlers and foreign schemes. */
export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'em', 'b', 'i', 'u', 'ul', 'ol', 'li', 'h3', 'h4', 'blockquote', 'a', 'span'],
    allowedAttributes: { a: ['href', 'title'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  });
}

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
 * Re-importing updates in place; gift card balances that already exist are left alone.
 */
export function importCatalog(db: Kysely<Database>, catalog: Catalog): Promise<ImportSummary> {
  return importCatalogProducts(db, catalog, catalog.products);
}

/**
 * importCatalog with the products given one at a time, as a catalog file is read
 * (catalog-file.ts): only their ids stay in memory (docs/decisions/214-scale-and-contention.md).
 */
export async function importCatalogProducts(
  db: Kysely<Database>,
  catalog: CatalogHead,
  products: Iterable<CatalogProduct> | AsyncIterable<CatalogProduct>,
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
    let position = 0;
    for await (const p of products) {
      const values = {
        store_id: store.id,
        external_id: p.id,
        name: p.name,
        description_html: sanitizeDescription(p.description_html),
        featured: p.featured,
        option_names: JSON.stringify(p.option_names),
        position: position++,
        // A product the console archived is on sale again when the catalog lists it.
        archived_at: null,
      };
      const product = await trx
        .insertInto('products')
        .values(values)
        .onConflict((oc) => oc.columns(['store_id', 'external_id']).doUpdateSet(values))
        .returning('id')
        .executeTakeFirstOrThrow();
      productIds.set(p.id, product.id);
      await trx.deleteFrom('product_images').where('product_id', '=', product.id).execute();
      const images = p.images.length
        ? await trx
            .insertInto('product_images')
            .values(
              p.images.map((img, i) => ({ product_id: product.id, url: img.url, alt: img.alt || p.name, position: i })),
            )
            .returning('id')
            .execute()
        : [];
      await trx
        .updateTable('products')
        .set({ default_image_id: images[p.default_image]?.id ?? images[0]?.id ?? null })
        .where('id', '=', product.id)
        .execute();
      // One statement for all of a product's variants: the listing triggers (migration 0015) run once.
      const variants = await trx
        .insertInto('product_variants')
        .values(
          p.variants.map((v, vPosition) => ({
            product_id: product.id,
            store_id: store.id,
            sku: v.sku,
            name: v.name,
            options: JSON.stringify(v.options),
            price_cents: v.price,
            stock: v.stock,
            position: vPosition,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['product_id', 'sku']).doUpdateSet((eb) => ({
            store_id: eb.ref('excluded.store_id'),
            name: eb.ref('excluded.name'),
            options: eb.ref('excluded.options'),
            price_cents: eb.ref('excluded.price_cents'),
            stock: eb.ref('excluded.stock'),
            position: eb.ref('excluded.position'),
            // A variant the catalog lists is on sale again, if the console had deactivated it.
            deactivated_at: null,
          })),
        )
        .returning(['id', 'sku'])
        .execute();
      for (const variant of variants) variantIds.set(`${p.id}/${variant.sku}`, variant.id);
      // The SKUs were checked against the product's variants when the catalog was parsed.
      const links = p.images.flatMap((img, i) =>
        img.variant_skus.map((sku) => ({ image_id: images[i]!.id, variant_id: variantIds.get(`${p.id}/${sku}`)! })),
      );
      if (links.length)
        await trx
          .insertInto('product_image_variants')
          .values(links)
          .onConflict((oc) => oc.doNothing())
          .execute();
    }

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
      await trx.deleteFrom('bundle_items').where('bundle_id', '=', bundle.id).execute();
      const items = b.items.map((item, i) => {
        const variantId = variantIds.get(`${item.product}/${item.sku}`);
        if (!variantId)
          throw new Error(`Bundle ${b.id}: no product ${item.product} with sku ${item.sku} in this catalog`);
        return { bundle_id: bundle.id, product_variant_id: variantId, quantity: item.quantity, position: i };
      });
      await trx.insertInto('bundle_items').values(items).execute();
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
