/**
 * The filters of the shop, collection and search pages in their URLs (docs/decisions/192-listing-facets.md):
 * `in_stock=true`, `price_min`, `price_max` and `option=Size:M` (repeated), as the API takes them and
 * as the page's GET form sends them. Read leniently: a bad value is dropped, never an error.
 */
import type { ListingFacets } from '../contract/answers.ts';
import type { ListingQuery } from '../contract/payloads.ts';
import { formatCurrency } from '../money.ts';

export type FilterState = {
  inStock: boolean;
  /** Decimal strings as typed ("20", "80.50"); '' for no bound. */
  priceMin: string;
  priceMax: string;
  /** `Name:Value` pairs, e.g. `Size:M`. */
  options: string[];
};

export const NO_FILTERS: FilterState = { inStock: false, priceMin: '', priceMax: '', options: [] };
/** The facets of a list the API did not count (nothing to offer). */
export const NO_FACETS: ListingFacets = { in_stock: 0, price: null, options: [] };

const PRICE = /^\d{1,9}(\.\d{1,2})?$/;
const OPTION = /^[^:]{1,100}:.{1,100}$/su;
const MAX_OPTIONS = 50;

export function parseFilters(search: URLSearchParams): FilterState {
  const price = (key: string) => {
    const value = (search.get(key) ?? '').trim();
    return PRICE.test(value) ? value : '';
  };
  let priceMin = price('price_min');
  const priceMax = price('price_max');
  // A minimum above the maximum would find nothing: the maximum wins.
  if (priceMin && priceMax && Number(priceMin) > Number(priceMax)) priceMin = '';
  return {
    inStock: search.get('in_stock') === 'true',
    priceMin,
    priceMax,
    options: [...new Set(search.getAll('option').filter((pair) => OPTION.test(pair)))].slice(0, MAX_OPTIONS),
  };
}

/**
 * A list's GET form sends its empty fields too (`q=&price_min=`): such an address is sent on to the
 * one without them, so each list state has one URL to share, bookmark and cache.
 */
export const hasEmptyParams = (search: URLSearchParams): boolean => [...search.values()].some((value) => value === '');

export const hasFilters = (f: FilterState) =>
  f.inStock || f.priceMin !== '' || f.priceMax !== '' || f.options.length > 0;

/** Adds the filters to a page's query string (in the API's names). */
export function appendFilters(params: URLSearchParams, f: FilterState): void {
  if (f.inStock) params.set('in_stock', 'true');
  if (f.priceMin) params.set('price_min', f.priceMin);
  if (f.priceMax) params.set('price_max', f.priceMax);
  for (const pair of f.options) params.append('option', pair);
}

/**
 * A list page's query string (`?q=…&sort=…&…filters…&page=…`) with defaults left out, so page 1 in
 * the list's default order is the bare URL (static, for the shop and collections).
 */
export function listQueryString(
  query: {
    q?: string | undefined;
    sort?: string | undefined;
    filters?: FilterState | undefined;
    page?: number | undefined;
  },
  defaultSort: string | null,
): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.sort && query.sort !== defaultSort) params.set('sort', query.sort);
  if (query.filters) appendFilters(params, query.filters);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The filters as the API call takes them. */
export function filterQuery(f: FilterState): Pick<ListingQuery, 'in_stock' | 'price_min' | 'price_max' | 'option'> {
  return {
    ...(f.inStock ? { in_stock: true } : {}),
    ...(f.priceMin ? { price_min: f.priceMin } : {}),
    ...(f.priceMax ? { price_max: f.priceMax } : {}),
    ...(f.options.length ? { option: f.options } : {}),
  };
}

/** The applied filters, each with the filters left when it is removed ("Size: M ×"). */
export function activeFilters(f: FilterState): { label: string; without: FilterState }[] {
  const active = f.options.map((pair) => {
    const at = pair.indexOf(':');
    return {
      label: `${pair.slice(0, at)}: ${pair.slice(at + 1)}`,
      without: { ...f, options: f.options.filter((other) => other !== pair) },
    };
  });
  if (f.inStock) active.unshift({ label: 'In stock', without: { ...f, inStock: false } });
  if (f.priceMin) active.push({ label: `From ${formatCurrency(f.priceMin)}`, without: { ...f, priceMin: '' } });
  if (f.priceMax) active.push({ label: `Up to ${formatCurrency(f.priceMax)}`, without: { ...f, priceMax: '' } });
  return active;
}
