import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { CatalogProduct } from './catalog-format.ts';
import { sanitizeDescription } from './sanitize-description.ts';

type Trx = Transaction<Database>;

/**
 * Products written per statement: a 100,000-product import is a few thousand statements rather than
 * half a million (docs/decisions/214-scale-and-contention.md), each well inside PostgreSQL's 65,535
 * parameters (8 per product, 8 per variant row, written at most ROWS_PER_STATEMENT at a time).
 */
export const PRODUCTS_PER_BATCH = 500;
const ROWS_PER_STATEMENT = 2000;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/** Where the batch's products go and what the rest of the import needs to know of them. */
export type ProductIds = {
  storeId: number;
  /** Catalog product id → row id (collections name products by it). */
  products: Map<string, number>;
  /** `product/sku` → variant row id (bundles name variants by it). */
  variants: Map<string, number>;
};

/**
 * Upserts a batch of products (matched by catalog id, each id once in a batch) with their images, default
 * image, variants (by sku) and the images' variants, in a handful of statements.
 */
export async function writeProducts(
  trx: Trx,
  batch: readonly { product: CatalogProduct; position: number }[],
  ids: ProductIds,
): Promise<void> {
  if (batch.length === 0) return;
  const rows = await trx
    .insertInto('products')
    .values(
      batch.map(({ product: p, position }) => ({
        store_id: ids.storeId,
        external_id: p.id,
        name: p.name,
        description_html: sanitizeDescription(p.description_html),
        featured: p.featured,
        option_names: JSON.stringify(p.option_names),
        position,
        // A product the console archived is on sale again when the catalog lists it.
        archived_at: null,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['store_id', 'external_id']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        description_html: eb.ref('excluded.description_html'),
        featured: eb.ref('excluded.featured'),
        option_names: eb.ref('excluded.option_names'),
        position: eb.ref('excluded.position'),
        archived_at: null,
      })),
    )
    .returning(['id', 'external_id'])
    .execute();
  for (const row of rows) ids.products.set(row.external_id, row.id);
  const productId = (p: CatalogProduct) => ids.products.get(p.id)!;
  const productIds = batch.map(({ product }) => productId(product));

  await trx.deleteFrom('product_images').where('product_id', 'in', productIds).execute();
  const imageRows = batch.flatMap(({ product: p }) =>
    p.images.map((img, i) => ({ product_id: productId(p), url: img.url, alt: img.alt || p.name, position: i })),
  );
  /** `productId/position` → image row id. */
  const imageIds = new Map<string, number>();
  for (const chunk of chunks(imageRows)) {
    const inserted = await trx
      .insertInto('product_images')
      .values(chunk)
      .returning(['id', 'product_id', 'position'])
      .execute();
    for (const image of inserted) imageIds.set(`${image.product_id}/${image.position}`, image.id);
  }
  const defaults = batch.map(({ product: p }) => {
    const at = p.images[p.default_image] ? p.default_image : 0;
    return imageIds.get(`${productId(p)}/${at}`) ?? null;
  });
  await sql`
    update products p set default_image_id = d.image_id
    from unnest(${productIds}::int[], ${defaults}::int[]) as d(id, image_id)
    where p.id = d.id`.execute(trx);

  const variantRows = batch.flatMap(({ product: p }) =>
    p.variants.map((v, position) => ({
      product_id: productId(p),
      store_id: ids.storeId,
      sku: v.sku,
      name: v.name,
      options: JSON.stringify(v.options),
      price_cents: v.price,
      stock: v.stock,
      position,
    })),
  );
  const external = new Map(batch.map(({ product: p }) => [productId(p), p.id]));
  for (const chunk of chunks(variantRows)) {
    const variants = await trx
      .insertInto('product_variants')
      .values(chunk)
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
      .returning(['id', 'sku', 'product_id'])
      .execute();
    for (const v of variants) ids.variants.set(`${external.get(v.product_id)}/${v.sku}`, v.id);
  }

  // The SKUs were checked against the product's variants when the catalog was parsed.
  const links = batch.flatMap(({ product: p }) =>
    p.images.flatMap((img, i) =>
      img.variant_skus.map((sku) => ({
        image_id: imageIds.get(`${productId(p)}/${i}`)!,
        variant_id: ids.variants.get(`${p.id}/${sku}`)!,
      })),
    ),
  );
  for (const chunk of chunks(links))
    await trx
      .insertInto('product_image_variants')
      .values(chunk)
      .onConflict((oc) => oc.doNothing())
      .execute();
}
