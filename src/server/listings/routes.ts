import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { Listing, Many } from '../../lib/contract/answers.ts';
import { listQuerySchema } from '../catalog/list-query.ts';
import {
  bundleItems,
  bundlesById,
  imagesByProduct,
  listListings,
  productsById,
  variantsByProduct,
  type ListOptions,
} from '../catalog/queries.ts';
import { reshapeBundle, reshapeProduct } from '../catalog/reshape.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { readQuery } from '../http/validation.ts';

/** One page of the shop's list of products and bundles, or of one collection's members only. */
export async function listingPage(
  db: Kysely<Database>,
  storeId: number,
  options: ListOptions,
  collectionId?: number,
): Promise<Many<Listing>> {
  const { refs, total } = await listListings(db, storeId, options, collectionId);
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
  return { data, meta: { total, page: options.page, perPage: options.perPage } };
}

/** `…/listings`: a page of products and bundles sorted together (the shop's list). */
export function listingRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => c.json(await listingPage(db, c.var.store.id, readQuery(c, listQuerySchema))));

  return app;
}
