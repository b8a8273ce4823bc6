/**
 * The search results page (docs/decisions/191-search-engine.md): the shop's cards, sort and paging
 * over `…/search?q=`, the URL holding the state. Nothing found (or nothing asked) shows featured items.
 */
import { bundleCard, productCard, type CatalogCard } from '../catalog/catalog-card.ts';
import type { Listing, ListingFacets } from '../contract/answers.ts';
import type { CatalogApi } from './catalog-api.ts';
import { filterQuery, listQueryString, NO_FACETS, parseFilters, type FilterState } from './listing-filters.ts';
import { FEATURED_COUNT, SHOP_PAGE_SIZE, SHOP_SORTS } from './shop.ts';

export const SEARCH_SORTS = ['relevance', ...SHOP_SORTS] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
const MAX_QUERY_LENGTH = 100;
const MAX_PAGE = 100_000;

export type SearchPageQuery = { q: string; sort: SearchSort; page: number; filters: FilterState };

/** The page's query string, read leniently: bad values fall back to defaults, never an error. */
export function parseSearchQuery(search: URLSearchParams): SearchPageQuery {
  const page = Number(search.get('page'));
  const sort = search.get('sort') as SearchSort | null;
  return {
    q: (search.get('q') ?? '').trim().slice(0, MAX_QUERY_LENGTH),
    sort: sort && SEARCH_SORTS.includes(sort) ? sort : 'relevance',
    page: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
    filters: parseFilters(search),
  };
}

/** The search page's query string (`listQueryString`): best match is its default order. */
export const searchQueryString = (query: Partial<SearchPageQuery>): string => listQueryString(query, 'relevance');

export type SearchData = {
  query: SearchPageQuery;
  items: CatalogCard[];
  total: number;
  pageCount: number;
  /** Offered when the search found nothing or asked nothing. */
  featured: CatalogCard[];
  /** docs/decisions/192-listing-facets.md */
  facets: ListingFacets;
};

const card = (entry: Listing) => (entry.type === 'bundle' ? bundleCard(entry) : productCard(entry));

/** One page of results, or the featured items when there are none. */
export async function loadSearch(api: CatalogApi, slug: string, query: SearchPageQuery): Promise<SearchData> {
  const found = query.q
    ? await api.searchListings(slug, {
        q: query.q,
        page: query.page,
        per_page: SHOP_PAGE_SIZE,
        ...(query.sort === 'relevance' ? {} : { sort: query.sort }),
        ...filterQuery(query.filters),
      })
    : { data: [], meta: { total: 0, facets: NO_FACETS } };
  const total = found.meta.total;
  const featured =
    total === 0 ? (await api.listListings(slug, { featured: true, per_page: FEATURED_COUNT })).data.map(card) : [];
  return {
    query,
    items: found.data.map(card),
    total,
    pageCount: Math.max(1, Math.ceil(total / SHOP_PAGE_SIZE)),
    featured,
    facets: found.meta.facets,
  };
}
