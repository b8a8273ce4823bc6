import { Hono } from 'hono';
import type { Collection, Many, One, Product, ProductCollections, ProductVariant } from '../../lib/contract/answers.ts';
import { productIdsQuery } from '../../lib/contract/payloads.ts';
import { itemIdsAnswer, listFields, listQuerySchema } from '../catalog/list-query.ts';
import {
  collectionsOfProduct,
  collectionsOfStoreProducts,
  findProduct,
  imagesByProduct,
  listProductIds,
  listProducts,
  variantPricesByProduct,
  variantsByProduct,
  variantsOfStoreProducts,
} from '../catalog/queries.ts';
import { reshapeCollection, reshapeProduct, reshapeVariant } from '../catalog/reshape.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { intId, readQuery } from '../http/validation.ts';

/** `…/products`, `…/products/{id}`, `…/products/{id}/product_variants`, `…/products/{id}/collections`. */
export function productRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const options = readQuery(c, listQuerySchema);
    if (readQuery(c, listFields).fields === 'id')
      return c.json(itemIdsAnswer('product', await listProductIds(db, c.var.store.id, options), options));
    const { rows, total } = await listProducts(db, c.var.store.id, options);
    const ids = rows.map((r) => r.id);
    const [images, variants] = await Promise.all([imagesByProduct(db, ids), variantPricesByProduct(db, ids)]);
    const body: Many<Product> = {
      data: rows.map((row) => reshapeProduct(row, images.get(row.id) ?? [], variants.get(row.id) ?? [])),
      meta: { total, page: options.page, perPage: options.perPage },
    };
    return c.json(body);
  });

  app.get('/:id', async (c) => {
    const row = await findProduct(db, c.var.store.id, intId(c.req.param('id')));
    if (!row) throw notFound();
    const [images, variants] = await Promise.all([imagesByProduct(db, [row.id]), variantPricesByProduct(db, [row.id])]);
    const body: One<Product> = { data: reshapeProduct(row, images.get(row.id) ?? [], variants.get(row.id) ?? []) };
    return c.json(body);
  });

  app.get('/:id/product_variants', async (c) => {
    const row = await findProduct(db, c.var.store.id, intId(c.req.param('id')));
    if (!row) throw notFound();
    const variants = await variantsByProduct(db, [row.id]);
    const body: Many<ProductVariant> = { data: (variants.get(row.id) ?? []).map(reshapeVariant) };
    return c.json(body);
  });

  app.get('/:id/collections', async (c) => {
    const row = await findProduct(db, c.var.store.id, intId(c.req.param('id')));
    if (!row) throw notFound();
    const body: Many<Collection> = { data: (await collectionsOfProduct(db, row.id)).map(reshapeCollection) };
    return c.json(body);
  });

  return app;
}

/**
 * `…/product_variants?product_ids=1,2,3` (extension): the variants of many products in one call, as
 * `…/products/{id}/product_variants` lists them, one product after the other in the order asked.
 * Ids that are not this store's products have none. Lets a build read a list page's variants with
 * one query instead of one call per product (docs/api.md).
 */
export function productVariantRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const { product_ids: ids } = readQuery(c, productIdsQuery);
    const variants = await variantsOfStoreProducts(db, c.var.store.id, ids);
    const body: Many<ProductVariant> = { data: ids.flatMap((id) => variants.get(id) ?? []).map(reshapeVariant) };
    return c.json(body);
  });

  return app;
}

/**
 * `…/product_collections?product_ids=1,2,3` (extension): each of those products on sale, in id order, with
 * its collections exactly as `…/products/{id}/collections` lists them. A build reads a list page's
 * collections with one query instead of one call per product (docs/decisions/211-incremental-builds.md).
 */
export function productCollectionRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const { product_ids: ids } = readQuery(c, productIdsQuery);
    const collections = await collectionsOfStoreProducts(db, c.var.store.id, ids);
    const body: Many<ProductCollections> = {
      data: [...collections].map(([id, rows]) => ({
        product_id: String(id),
        collections: rows.map(reshapeCollection),
      })),
    };
    return c.json(body);
  });

  return app;
}
