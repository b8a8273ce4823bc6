import type { Kysely } from 'kysely';
import type { Listing } from '../../lib/contract/answers.ts';
import { listedRows, type ListingRef } from '../catalog/queries.ts';
import { reshapeBundle, reshapeProduct } from '../catalog/reshape.ts';
import type { Database } from '../db/schema.ts';

/** The listing entries (products and bundles with images and prices) of `refs`, in their order. */
export async function listingEntries(
  db: Kysely<Database>,
  storeId: number,
  refs: readonly ListingRef[],
): Promise<Listing[]> {
  const ids = (kind: 'product' | 'bundle') => refs.filter((r) => r.kind === kind).map((r) => r.id);
  const { products, bundles } = await listedRows(db, storeId, ids('product'), ids('bundle'));
  const productById = new Map(products.map((p) => [p.id, p]));
  const bundleById = new Map(bundles.map((b) => [b.id, b]));
  return refs.flatMap((ref): Listing[] => {
    if (ref.kind === 'product') {
      const row = productById.get(ref.id);
      return row ? [reshapeProduct(row, row.images, row.variants)] : [];
    }
    const row = bundleById.get(ref.id);
    return row ? [reshapeBundle(row, row.items, new Map(row.items.map((item) => [item.product_id, item.images])))] : [];
  });
}
