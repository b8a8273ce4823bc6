import type { Listing, ListingFacets, Many } from '../contract/answers.ts';
import type { ListingQuery } from '../contract/payloads.ts';
import { bundleCard, productCard, type CatalogCard } from '../catalog/catalog-card.ts';
import type { CatalogApi } from './catalog-api.ts';
import { filterQuery, hasFilters, listQueryString, parseFilters, type FilterState } from './listing-filters.ts';

export const SHOP_PAGE_SIZE = 48;
export const SHOP_SORTS = ['featured', 'newest', 'name', '-name', 'price', '-price'] as const;
/** How many featured items the "nothing matches" state offers. */
export const FEATURED_COUNT = 4;
export type ShopSort = (typeof SHOP_SORTS)[number];
const MAX_QUERY_LENGTH = 100;
const MAX_PAGE = 100_000;

/** The shop's query string, read leniently: bad values fall back to defaults, never an error. */
export type ShopQuery = {
  page: number;
  /** Undefined: the list's own order (a collection's, docs/decisions/190-collections.md). */
  sort: ShopSort | undefined;
  q: string;
  /** docs/decisions/192-listing-facets.md */
  filters: FilterState;
};

/** `defaultSort`: the shop lists by name; a collection in its own order (null). */
export function parseShopQuery(search: URLSearchParams, defaultSort: ShopSort | null = 'name'): ShopQuery {
  const page = Number(search.get('page'));
  const sort = search.get('sort') as ShopSort | null;
  return {
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
    sort: sort && SHOP_SORTS.includes(sort) ? sort : (defaultSort ?? undefined),
    q: (search.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH),
    filters: parseFilters(search),
  };
}

/** The shop's or a collection's query string (`listQueryString`); `defaultSort` as in `parseShopQuery`. */
export const shopSearch = (query: Partial<ShopQuery>, defaultSort: ShopSort | null = 'name'): string =>
  listQueryString(query, defaultSort);

export type ShopParams = {
  slug: string;
  query: ShopQuery;
  /** One collection's items only (its handle); the whole shop when left out. */
  collection?: string;
};

export type ShopData = {
  query: ShopQuery;
  /** Products and bundles of this page, in one order: a bundle sits where its price or name puts it. */
  items: CatalogCard[];
  /** Products and bundles matching the search, over all pages. */
  total: number;
  pageCount: number;
  /** The counts of each filter's choices (docs/decisions/192-listing-facets.md). */
  facets: ListingFacets;
  /** Offered when the filters match nothing. */
  featured: CatalogCard[];
};

const card = (entry: Listing) => (entry.type === 'bundle' ? bundleCard(entry) : productCard(entry));

function totalOf(list: Many<unknown>, query: ListingQuery): number {
  // An API that does not paginate answers everything at once: its length is the total.
  return list.meta?.total ?? ((query.page ?? 1) - 1) * (query.per_page ?? SHOP_PAGE_SIZE) + list.data.length;
}

/**
 * One page of the shop (or of one collection): products and bundles as one list, the API sorting,
 * filtering and paging them together (a 10,000-product store costs one page of work per request).
 */
export async function loadShop(api: CatalogApi, { slug, query, collection }: ShopParams): Promise<ShopData> {
  const list: ListingQuery = {
    page: query.page,
    per_page: SHOP_PAGE_SIZE,
    ...(query.sort ? { sort: query.sort } : {}),
    ...(query.q ? { q: query.q } : {}),
    ...filterQuery(query.filters),
  };
  const listings = collection
    ? await api.listCollectionListings(slug, collection, list)
    : await api.listListings(slug, list);
  const total = totalOf(listings, list);
  const featured =
    total === 0 && hasFilters(query.filters)
      ? (await api.listListings(slug, { featured: true, per_page: FEATURED_COUNT })).data.map(card)
      : [];
  return {
    query,
    items: listings.data.map(card),
    total,
    pageCount: Math.max(1, Math.ceil(total / SHOP_PAGE_SIZE)),
    facets: listings.meta.facets,
    featured,
  };
}
