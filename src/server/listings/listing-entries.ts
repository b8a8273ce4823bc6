import type { Kysely } from 'kysely';
import type { Listing } from '../../lib/contract/answers.ts';
import {
  bundleItems,
  bundlesById,
  imagesByProduct,
  productsById,
  variantPricesByProduct,
  type ListingRef,
} from '../catalog/queries.ts';
import { reshapeBundle, reshapeProduct } from '../catalog/reshape.ts';
import type { Database } from '../db/schema.ts';

/** The listing entries (products and bundles with images and prices) of `refs`, in their order. */
export async function listingEntries(
  db: Kysely<Database>,
  storeId: number,
  refs: readonly ListingRef[],
): Promise<Listing[]> {
  const ids = (kind: 'product' | 'bundle') => refs.filter((r) => r.kind === kind).map((r) => r.id);
  const [products, bundles, items] = await Promise.all([
    productsById(db, storeId, ids('product')),
    bundlesById(db, storeId, ids('bundle')),
    bundleItems(db, ids('bundle')),
  ]);
  const productIds = products.map((p) => p.id);
  const [images, variants] = await Promise.all([
    imagesByProduct(db, [...productIds, ...items.map((i) => i.product_id)]),
    variantPricesByProduct(db, productIds),
  ]);
  const productById = new Map(products.map((p) => [p.id, p]));
  const bundleById = new Map(bundles.map((b) => [b.id, b]));
  return refs.flatMap((ref): Listing[] => {
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
}
