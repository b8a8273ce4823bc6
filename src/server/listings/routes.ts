import { Hono } from 'hono';
import type { Listing, Many } from '../../lib/contract/answers.ts';
import { listQuerySchema } from '../catalog/list-query.ts';
import {
  bundleItems,
  bundlesById,
  imagesByProduct,
  listListings,
  productsById,
  variantsByProduct,
} from '../catalog/queries.ts';
import { reshapeBundle, reshapeProduct } from '../catalog/reshape.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { readQuery } from '../http/validation.ts';

/** `…/listings`: a page of products and bundles sorted together (the shop's list). */
export function listingRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const storeId = c.var.store.id;
    const options = readQuery(c, listQuerySchema);
    const { refs, total } = await listListings(db, storeId, options);
    const ids = (kind: 'product' | 'bundle') => refs.filter((r) => r.kind === kind).map((r) => r.id);
    const [products, bundles, items] = await Promise.all([
      productsById(db, storeId, ids('product')),
      bundlesById(db, storeId, ids('bundle')),
      bundleItems(db, ids('bundle')),
    ]);
    const productIds = products.map((p) => p.id);
    const [images, variants] = await Promise.all([
      imagesByProduct(db, [...productIds, ...items.map((i) => i.product_id)]),
      variantsByProduct(db, productIds),
    ]);
    const productById = new Map(products.map((p) => [p.id, p]));
    const bundleById = new Map(bundles.map((b) => [b.id, b]));
    const data: Listing[] = refs.flatMap((ref): Listing[] => {
      if (ref.kind === 'product') {
        const row = productById.get(ref.id);
        return row ? [reshapeProduct(row, images.get(row.id) ?? [], variants.get(row.id) ?? [])] : [];
      }
      const row = bundleById.get(ref.id);
      return row
        ? [
            reshapeBundle(
              row,
              items.filter((i) => i.bundle_id === row.id),
              images,
            ),
          ]
        : [];
    });
    const body: Many<Listing> = { data, meta: { total, page: options.page, perPage: options.perPage } };
    return c.json(body);
  });

  return app;
}
