import { sql, type Expression, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  BUNDLE_IN_STOCK,
  filterCondition,
  listingFacets,
  NO_FILTERS,
  PRODUCT_IN_STOCK,
  type ListingFacets,
  type ListingFilters,
} from './listing-filters.ts';
import type { BundleItemRow, ImageRow, VariantRow } from './reshape.ts';

type Db = Kysely<Database>;

export type ListOptions = {
  page: number;
  perPage: number;
  sort: 'name' | '-name' | 'price' | '-price' | 'featured' | 'newest' | undefined;
  q: string | undefined;
  featured: boolean | undefined;
  /** The shop's filters (docs/decisions/192-listing-facets.md); none when left out. */
  filters?: ListingFilters;
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A product's listed price: its lowest variant price (kept by migration 0015's triggers). */
export const PRODUCT_PRICE = sql<number>`products.listed_price_cents`;
/** A bundle's listed price: its items' prices times their quantities (kept by migration 0015's triggers). */
export const BUNDLE_PRICE = sql<number>`bundles.listed_price_cents`;

type Order = [Expression<unknown>, 'asc' | 'desc'];

/**
 * A list's ORDER BY: by name or price either way as asked, featured first (then by name), newest first
 * (the latest added: highest id; docs/decisions/192-listing-facets.md), else the list's own order.
 */
function listOrder(
  sort: ListOptions['sort'],
  columns: {
    name: Expression<string>;
    price: Expression<number>;
    featured: Expression<boolean>;
    id: Expression<number>;
  },
  unsorted: Order[],
): Order[] {
  if (!sort) return unsorted;
  if (sort === 'featured')
    return [
      [columns.featured, 'desc'],
      [columns.name, 'asc'],
    ];
  if (sort === 'newest') return [[columns.id, 'desc']];
  return [[sort.endsWith('price') ? columns.price : columns.name, sort.startsWith('-') ? 'desc' : 'asc']];
}

export async function imagesByProduct(db: Db, productIds: readonly number[]): Promise<Map<number, ImageRow[]>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('product_images')
    .select(['id', 'product_id', 'url', 'alt'])
    .where('product_id', 'in', [...new Set(productIds)])
    .orderBy('product_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  return Map.groupBy(rows, (row) => row.product_id);
}

export async function variantsByProduct(db: Db, productIds: readonly number[]): Promise<Map<number, VariantRow[]>> {
  if (productIds.length === 0) return new Map();
  return variantsOf(db, [...new Set(productIds)]);
}

/** Variants of those of `productIds` that are products of the store (other ids have none), by product. */
export async function variantsOfStoreProducts(
  db: Db,
  storeId: number,
  productIds: readonly number[],
): Promise<Map<number, VariantRow[]>> {
  if (productIds.length === 0) return new Map();
  return variantsOf(
    db,
    db
      .selectFrom('products')
      .select('products.id')
      .where('products.store_id', '=', storeId)
      .where('products.id', 'in', [...new Set(productIds)]),
  );
}

async function variantsOf(
  db: Db,
  productIds: number[] | SelectQueryBuilder<Database, 'products', { id: number }>,
): Promise<Map<number, VariantRow[]>> {
  const rows = await db
    .selectFrom('product_variants')
    .select(['id', 'product_id', 'sku', 'name', 'options', 'price_cents', 'stock'])
    // The variant's own images in gallery order (docs/decisions/193-variant-images.md).
    .select((eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom('product_image_variants as piv')
            .innerJoin('product_images as pi', 'pi.id', 'piv.image_id')
            .select(sql<number[]>`array_agg(pi.id order by pi.position, pi.id)`.as('ids'))
            .whereRef('piv.variant_id', '=', 'product_variants.id'),
          sql<number[]>`'{}'::int[]`,
        )
        .as('image_ids'),
    )
    .where('product_id', 'in', productIds)
    .orderBy('product_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  return Map.groupBy(rows, (row) => row.product_id);
}

export async function listProducts(db: Db, storeId: number, options: ListOptions) {
  let query = db.selectFrom('products').where('products.store_id', '=', storeId);
  if (options.q) query = query.where('products.name', 'ilike', `%${escapeLike(options.q)}%`);
  if (options.featured !== undefined) query = query.where('products.featured', '=', options.featured);

  const { total } = await query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  let page = query.select([
    'products.id',
    'products.name',
    'products.description_html',
    'products.featured',
    'products.option_names',
    'products.default_image_id',
  ]);
  const columns = {
    name: sql.ref<string>('products.name'),
    price: PRODUCT_PRICE,
    featured: sql.ref<boolean>('products.featured'),
    id: sql.ref<number>('products.id'),
  };
  for (const [by, direction] of listOrder(options.sort, columns, [[sql.ref('products.position'), 'asc']])) {
    page = page.orderBy(by, direction);
  }
  const rows = await page
    .orderBy('products.id')
    .limit(options.perPage)
    .offset((options.page - 1) * options.perPage)
    .execute();
  return { rows, total };
}

export async function findProduct(db: Db, storeId: number, productId: number) {
  return db
    .selectFrom('products')
    .select(['id', 'name', 'description_html', 'featured', 'option_names', 'default_image_id'])
    .where('store_id', '=', storeId)
    .where('id', '=', productId)
    .executeTakeFirst();
}

export async function listBundles(db: Db, storeId: number, options: ListOptions) {
  let query = db.selectFrom('bundles').where('bundles.store_id', '=', storeId);
  if (options.q) query = query.where('bundles.name', 'ilike', `%${escapeLike(options.q)}%`);
  if (options.featured !== undefined) query = query.where('bundles.featured', '=', options.featured);
  const { total } = await query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  let page = query.select(['bundles.id', 'bundles.name', 'bundles.description_html', 'bundles.featured']);
  const columns = {
    name: sql.ref<string>('bundles.name'),
    price: BUNDLE_PRICE,
    featured: sql.ref<boolean>('bundles.featured'),
    id: sql.ref<number>('bundles.id'),
  };
  for (const [by, direction] of listOrder(options.sort, columns, [[sql.ref('bundles.position'), 'asc']])) {
    page = page.orderBy(by, direction);
  }
  const rows = await page
    .orderBy('bundles.id')
    .limit(options.perPage)
    .offset((options.page - 1) * options.perPage)
    .execute();
  return { rows, total };
}

export async function findBundle(db: Db, storeId: number, bundleId: number) {
  return db
    .selectFrom('bundles')
    .select(['id', 'name', 'description_html', 'featured'])
    .where('store_id', '=', storeId)
    .where('id', '=', bundleId)
    .executeTakeFirst();
}

export async function bundleItems(db: Db, bundleIds: readonly number[]): Promise<BundleItemRow[]> {
  if (bundleIds.length === 0) return [];
  return db
    .selectFrom('bundle_items as bi')
    .innerJoin('product_variants as v', 'v.id', 'bi.product_variant_id')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select([
      'bi.id',
      'bi.bundle_id',
      'bi.quantity',
      'bi.product_variant_id',
      'v.product_id',
      'p.name as product_name',
      'v.name as variant_name',
      'v.price_cents',
      'v.stock',
      'p.default_image_id',
    ])
    .where('bi.bundle_id', 'in', [...new Set(bundleIds)])
    .orderBy('bi.bundle_id')
    .orderBy('bi.position')
    .orderBy('bi.id')
    .execute();
}

/** One entry of a mixed listing: which table, which row, in the order asked. */
export type ListingRef = { kind: 'product' | 'bundle'; id: number };

/** A member's place in a collection; 0 outside one (every entry then ties). */
const memberPosition = (member: 'product_id' | 'bundle_id', table: 'products' | 'bundles', collectionId?: number) =>
  collectionId === undefined
    ? sql<number>`0`
    : sql<number>`(select ci.position from collection_items ci where ci.collection_id = ${collectionId} and ci.${sql.ref(member)} = ${sql.ref(`${table}.id`)})`;

/**
 * Products and bundles as one list (the shop): filtered and sorted together in one statement, so
 * "price: high to low" puts a $120 bundle between the $129 and the $98 products and a page holds
 * the right mix. Without a sort: featured first, then by name. With `collectionId`, the same list of
 * that collection's members only, unsorted in the collection's own order (docs/decisions/190-collections.md).
 */
export async function listListings(
  db: Db,
  storeId: number,
  options: ListOptions,
  collectionId?: number,
): Promise<{ refs: ListingRef[]; total: number; facets: ListingFacets }> {
  let products = db
    .selectFrom('products')
    .where('products.store_id', '=', storeId)
    .select([
      sql<ListingRef['kind']>`'product'`.as('kind'),
      'products.id',
      'products.name',
      'products.featured',
      PRODUCT_PRICE.as('price_cents'),
      PRODUCT_IN_STOCK.as('in_stock'),
      'products.option_values',
      memberPosition('product_id', 'products', collectionId).as('member_position'),
    ]);
  let bundles = db
    .selectFrom('bundles')
    .where('bundles.store_id', '=', storeId)
    .select([
      sql<ListingRef['kind']>`'bundle'`.as('kind'),
      'bundles.id',
      'bundles.name',
      'bundles.featured',
      BUNDLE_PRICE.as('price_cents'),
      BUNDLE_IN_STOCK.as('in_stock'),
      'bundles.option_values',
      memberPosition('bundle_id', 'bundles', collectionId).as('member_position'),
    ]);
  if (collectionId !== undefined) {
    products = products.where((eb) =>
      eb.exists(
        eb
          .selectFrom('collection_items as ci')
          .select('ci.id')
          .where('ci.collection_id', '=', collectionId)
          .whereRef('ci.product_id', '=', 'products.id'),
      ),
    );
    bundles = bundles.where((eb) =>
      eb.exists(
        eb
          .selectFrom('collection_items as ci')
          .select('ci.id')
          .where('ci.collection_id', '=', collectionId)
          .whereRef('ci.bundle_id', '=', 'bundles.id'),
      ),
    );
  }
  if (options.q) {
    const pattern = `%${escapeLike(options.q)}%`;
    products = products.where('products.name', 'ilike', pattern);
    bundles = bundles.where('bundles.name', 'ilike', pattern);
  }
  if (options.featured !== undefined) {
    products = products.where('products.featured', '=', options.featured);
    bundles = bundles.where('bundles.featured', '=', options.featured);
  }
  const entries = products.unionAll(bundles);
  const filters = options.filters ?? NO_FILTERS;
  const listing = entries.as('listing');
  const filtered = db.selectFrom(listing).where(filterCondition('listing', filters));
  const [{ total }, facets] = await Promise.all([
    filtered.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    listingFacets(db, entries, filters),
  ]);
  let page = filtered.select(['listing.kind', 'listing.id']);
  const columns = {
    name: sql.ref<string>('listing.name'),
    price: sql.ref<number>('listing.price_cents'),
    featured: sql.ref<boolean>('listing.featured'),
    id: sql.ref<number>('listing.id'),
  };
  const unsorted: Order[] =
    collectionId === undefined
      ? [
          [sql.ref('listing.featured'), 'desc'],
          [sql.ref('listing.name'), 'asc'],
        ]
      : [[sql.ref('listing.member_position'), 'asc']];
  for (const [by, direction] of listOrder(options.sort, columns, unsorted)) page = page.orderBy(by, direction);
  const refs: ListingRef[] = await page
    .orderBy('listing.kind')
    .orderBy('listing.id')
    .limit(options.perPage)
    .offset((options.page - 1) * options.perPage)
    .execute();
  return { refs, total, facets };
}

/** Products of a store by id, in no particular order. */
export async function productsById(db: Db, storeId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('products')
    .select(['id', 'name', 'description_html', 'featured', 'option_names', 'default_image_id'])
    .where('store_id', '=', storeId)
    .where('id', 'in', ids)
    .execute();
}

/** Bundles of a store by id, in no particular order. */
export async function bundlesById(db: Db, storeId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('bundles')
    .select(['id', 'name', 'description_html', 'featured'])
    .where('store_id', '=', storeId)
    .where('id', 'in', ids)
    .execute();
}

/** A store's collections in its order. */
export async function listCollections(db: Db, storeId: number) {
  return db
    .selectFrom('collections')
    .select(['id', 'handle', 'title', 'description'])
    .where('store_id', '=', storeId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** One of the store's collections by its handle; another store's never. */
export async function findCollection(db: Db, storeId: number, handle: string) {
  return db
    .selectFrom('collections')
    .select(['id', 'handle', 'title', 'description'])
    .where('store_id', '=', storeId)
    .where('handle', '=', handle)
    .executeTakeFirst();
}

/** The collections a product is in, in the store's order (a product page's breadcrumb and related items). */
export async function collectionsOfProduct(db: Db, productId: number) {
  return db
    .selectFrom('collections')
    .innerJoin('collection_items as ci', 'ci.collection_id', 'collections.id')
    .select(['collections.id', 'collections.handle', 'collections.title', 'collections.description'])
    .where('ci.product_id', '=', productId)
    .orderBy('collections.position')
    .orderBy('collections.id')
    .execute();
}
