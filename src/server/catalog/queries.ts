import { sql, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { rowsAsJson } from '../db/rows-as-json.ts';
import type { Database } from '../db/schema.ts';
import type { ListingFilters } from './listing-filters.ts';
import type {
  BundleItemRow,
  BundleRow,
  CollectionRow,
  ImageRow,
  ProductRow,
  VariantPrice,
  VariantRow,
} from './reshape.ts';

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

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

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

/**
 * `column = any($1)`: a list of ids as one array parameter. As a list of parameters, a list page's 500 ids
 * took PGlite longer to bind and plan than the rows took to read (docs/performance.md), and a longer
 * list could pass PostgreSQL's 65,535 parameters.
 */
const idIn = (column: string, ids: readonly number[]) => sql<boolean>`${sql.ref(column)} = any(${[...new Set(ids)]})`;

export async function imagesByProduct(db: Db, productIds: readonly number[]): Promise<Map<number, ImageRow[]>> {
  if (productIds.length === 0) return new Map();
  const rows = await rowsAsJson(
    db,
    db
      .selectFrom('product_images')
      .select(['id', 'product_id', 'url', 'alt'])
      .where(idIn('product_id', productIds))
      .orderBy('product_id')
      .orderBy('position')
      .orderBy('id'),
  );
  return Map.groupBy(rows, (row) => row.product_id);
}

export async function variantsByProduct(db: Db, productIds: readonly number[]): Promise<Map<number, VariantRow[]>> {
  if (productIds.length === 0) return new Map();
  return variantsOf(db, [...new Set(productIds)]);
}

/**
 * What a product's answer shows of its variants (its price and availability): their prices and stock,
 * without the image ids `variantsByProduct` gathers per variant, which a list of 500 products waited for.
 */
export async function variantPricesByProduct(
  db: Db,
  productIds: readonly number[],
): Promise<Map<number, VariantPrice[]>> {
  if (productIds.length === 0) return new Map();
  const rows = await rowsAsJson(
    db,
    db
      .selectFrom('product_variants')
      .select(['product_id', 'price_cents', 'stock'])
      .where(idIn('product_id', productIds))
      .where('deactivated_at', 'is', null),
  );
  return Map.groupBy(rows, (row) => row.product_id);
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
      .where('products.archived_at', 'is', null)
      .where(idIn('products.id', productIds)),
  );
}

async function variantsOf(
  db: Db,
  productIds: number[] | SelectQueryBuilder<Database, 'products', { id: number }>,
): Promise<Map<number, VariantRow[]>> {
  const rows = await rowsAsJson(
    db,
    db
      .selectFrom('product_variants')
      .select(['id', 'product_id', 'sku', 'name', 'options', 'price_cents', 'stock'])
      .where((eb) => (Array.isArray(productIds) ? idIn('product_id', productIds) : eb('product_id', 'in', productIds)))
      // A deactivated variant stays for the orders that name it, not for sale (migration 0024).
      .where('deactivated_at', 'is', null)
      .orderBy('product_id')
      .orderBy('position')
      .orderBy('id'),
  );
  if (rows.length === 0) return new Map();
  // The variants' own images in gallery order (docs/decisions/193-variant-images.md), in one query for all
  // of them: a subquery per variant made a list page's 700 variants the slowest read of a publish.
  const images = await rowsAsJson(
    db,
    db
      .selectFrom('product_image_variants as piv')
      .innerJoin('product_images as pi', 'pi.id', 'piv.image_id')
      .select(['piv.variant_id', 'pi.id'])
      // One array parameter, however many variants: a list of them could pass PostgreSQL's 65,535 parameters.
      .where(sql<boolean>`piv.variant_id = any(${rows.map((row) => row.id)})`)
      .orderBy('piv.variant_id')
      .orderBy('pi.position')
      .orderBy('pi.id'),
  );
  const imagesOf = Map.groupBy(images, (image) => image.variant_id);
  return Map.groupBy(
    rows.map((row) => ({ ...row, image_ids: (imagesOf.get(row.id) ?? []).map((image) => image.id) })),
    (row) => row.product_id,
  );
}

/** The store's products a list of `options` holds (unordered), and how many. */
async function productsListed(db: Db, storeId: number, options: ListOptions) {
  // An archived product is kept for its orders, never shown (migration 0024).
  let query = db
    .selectFrom('products')
    .where('products.store_id', '=', storeId)
    .where('products.archived_at', 'is', null);
  if (options.q) query = query.where('products.name', 'ilike', `%${escapeLike(options.q)}%`);
  if (options.featured !== undefined) query = query.where('products.featured', '=', options.featured);
  const { total } = await query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  return { query, total };
}

/**
 * One page of a product or bundle list, in the list's order: as asked, else the store's (`position`), and by
 * id where those tie.
 */
function listPage<T extends 'products' | 'bundles', O>(
  table: T,
  page: SelectQueryBuilder<Database, T, O>,
  options: ListOptions,
) {
  const column = <V>(name: string) => sql.ref<V>(`${table}.${name}`);
  const columns = {
    name: column<string>('name'),
    price: table === 'products' ? PRODUCT_PRICE : BUNDLE_PRICE,
    featured: column<boolean>('featured'),
    id: column<number>('id'),
  };
  for (const [by, direction] of listOrder(options.sort, columns, [[column('position'), 'asc']])) {
    page = page.orderBy(by, direction);
  }
  return page
    .orderBy(column('id'))
    .limit(options.perPage)
    .offset((options.page - 1) * options.perPage);
}

export async function listProducts(db: Db, storeId: number, options: ListOptions) {
  const { query, total } = await productsListed(db, storeId, options);
  const page = query.select([
    'products.id',
    'products.name',
    'products.description_html',
    'products.featured',
    'products.option_names',
    'products.default_image_id',
  ]);
  return { rows: await rowsAsJson(db, listPage('products', page, options)), total };
}

/** The ids of a page of `listProducts`, in its order: what a sitemap needs of it. */
export async function listProductIds(db: Db, storeId: number, options: ListOptions) {
  const { query, total } = await productsListed(db, storeId, options);
  return { rows: await listPage('products', query.select('products.id'), options).execute(), total };
}

export async function findProduct(db: Db, storeId: number, productId: number) {
  return db
    .selectFrom('products')
    .select(['id', 'name', 'description_html', 'featured', 'option_names', 'default_image_id'])
    .where('store_id', '=', storeId)
    .where('id', '=', productId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

/** The store's bundles a list of `options` holds (unordered), and how many. */
async function bundlesListed(db: Db, storeId: number, options: ListOptions) {
  let query = db.selectFrom('bundles').where('bundles.store_id', '=', storeId);
  if (options.q) query = query.where('bundles.name', 'ilike', `%${escapeLike(options.q)}%`);
  if (options.featured !== undefined) query = query.where('bundles.featured', '=', options.featured);
  const { total } = await query.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
  return { query, total };
}

export async function listBundles(db: Db, storeId: number, options: ListOptions) {
  const { query, total } = await bundlesListed(db, storeId, options);
  const page = query.select(['bundles.id', 'bundles.name', 'bundles.description_html', 'bundles.featured']);
  return { rows: await listPage('bundles', page, options).execute(), total };
}

/** The ids of a page of `listBundles`, in its order. */
export async function listBundleIds(db: Db, storeId: number, options: ListOptions) {
  const { query, total } = await bundlesListed(db, storeId, options);
  return { rows: await listPage('bundles', query.select('bundles.id'), options).execute(), total };
}

export async function findBundle(db: Db, storeId: number, bundleId: number) {
  return db
    .selectFrom('bundles')
    .select(['id', 'name', 'description_html', 'featured'])
    .where('store_id', '=', storeId)
    .where('id', '=', bundleId)
    .executeTakeFirst();
}

/** What a bundle item row holds (`BundleItemRow`), from bundle_items `bi` joined to its variant `v` and product `p`. */
const BUNDLE_ITEM_COLUMNS = [
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
] as const;

export async function bundleItems(db: Db, bundleIds: readonly number[]): Promise<BundleItemRow[]> {
  if (bundleIds.length === 0) return [];
  return db
    .selectFrom('bundle_items as bi')
    .innerJoin('product_variants as v', 'v.id', 'bi.product_variant_id')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select(BUNDLE_ITEM_COLUMNS)
    .where(idIn('bi.bundle_id', bundleIds))
    .orderBy('bi.bundle_id')
    .orderBy('bi.position')
    .orderBy('bi.id')
    .execute();
}

/** The items of those of `bundleIds` that are bundles of the store (other ids have none). */
export async function bundleItemsOfStoreBundles(
  db: Db,
  storeId: number,
  bundleIds: readonly number[],
): Promise<BundleItemRow[]> {
  if (bundleIds.length === 0) return [];
  const own = await db
    .selectFrom('bundles')
    .select('id')
    .where('store_id', '=', storeId)
    .where(idIn('id', bundleIds))
    .execute();
  return bundleItems(
    db,
    own.map((row) => row.id),
  );
}

/** One entry of a mixed listing: which table, which row, in the order asked. */
export type ListingRef = { kind: 'product' | 'bundle'; id: number };

/** A listed product: its row, its gallery in order and its variants for sale (what its entry shows). */
export type ListedProduct = ProductRow & { images: ImageRow[]; variants: VariantPrice[] };
/** A listed bundle: its row and its items in order, each with its product's gallery. */
export type ListedBundle = BundleRow & { items: (BundleItemRow & { images: ImageRow[] })[] };

/**
 * The products and bundles of a store among `productIds` and `bundleIds`, in no particular order, with
 * everything their listing entries show, in one statement: as five queries in two rounds, a page of 48
 * with bundles took PGlite twice as long (docs/decisions/224-listing-entries-in-one-statement.md).
 */
export async function listedRows(
  db: Db,
  storeId: number,
  productIds: readonly number[],
  bundleIds: readonly number[],
): Promise<{ products: ListedProduct[]; bundles: ListedBundle[] }> {
  if (productIds.length === 0 && bundleIds.length === 0) return { products: [], bundles: [] };
  const gallery = (eb: ExpressionBuilder<Database & { p: Database['products'] }, 'p'>) =>
    jsonArrayFrom(
      eb
        .selectFrom('product_images as i')
        .select(['i.id', 'i.product_id', 'i.url', 'i.alt'])
        .whereRef('i.product_id', '=', 'p.id')
        .orderBy('i.position')
        .orderBy('i.id'),
    );
  return db
    .selectNoFrom((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('products as p')
          .select(['p.id', 'p.name', 'p.description_html', 'p.featured', 'p.option_names', 'p.default_image_id'])
          .select((product) => [
            gallery(product).as('images'),
            jsonArrayFrom(
              product
                .selectFrom('product_variants as v')
                .select(['v.price_cents', 'v.stock'])
                .whereRef('v.product_id', '=', 'p.id')
                // A deactivated variant stays for the orders that name it, not for sale (migration 0024).
                .where('v.deactivated_at', 'is', null),
            ).as('variants'),
          ])
          .where('p.store_id', '=', storeId)
          .where(idIn('p.id', productIds))
          .where('p.archived_at', 'is', null),
      ).as('products'),
      jsonArrayFrom(
        eb
          .selectFrom('bundles as b')
          .select(['b.id', 'b.name', 'b.description_html', 'b.featured'])
          .select((bundle) =>
            jsonArrayFrom(
              bundle
                .selectFrom('bundle_items as bi')
                .innerJoin('product_variants as v', 'v.id', 'bi.product_variant_id')
                .innerJoin('products as p', 'p.id', 'v.product_id')
                .select(BUNDLE_ITEM_COLUMNS)
                .select((item) => gallery(item).as('images'))
                .whereRef('bi.bundle_id', '=', 'b.id')
                .orderBy('bi.position')
                .orderBy('bi.id'),
            ).as('items'),
          )
          .where('b.store_id', '=', storeId)
          .where(idIn('b.id', bundleIds)),
      ).as('bundles'),
    ])
    .executeTakeFirstOrThrow();
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
/**
 * The collections of many of a store's products on sale, by product id, each list as `collectionsOfProduct`
 * gives it; ids that are not such products are left out.
 */
export async function collectionsOfStoreProducts(
  db: Db,
  storeId: number,
  productIds: readonly number[],
): Promise<Map<number, CollectionRow[]>> {
  if (productIds.length === 0) return new Map();
  const rows = await rowsAsJson(
    db,
    db
      .selectFrom('products as p')
      .leftJoin('collection_items as ci', 'ci.product_id', 'p.id')
      .leftJoin('collections', 'collections.id', 'ci.collection_id')
      .select([
        'p.id as product_id',
        'collections.id',
        'collections.handle',
        'collections.title',
        'collections.description',
      ])
      .where('p.store_id', '=', storeId)
      .where('p.archived_at', 'is', null)
      .where(idIn('p.id', productIds))
      .orderBy('p.id')
      .orderBy('collections.position')
      .orderBy('collections.id'),
  );
  const byProduct = new Map<number, CollectionRow[]>();
  for (const { product_id: productId, id, handle, title, description } of rows) {
    let list = byProduct.get(productId);
    if (!list) byProduct.set(productId, (list = []));
    if (id !== null && handle !== null && title !== null) list.push({ id, handle, title, description });
  }
  return byProduct;
}

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
