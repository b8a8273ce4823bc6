import { catalogListQuery, listingQuery, listQuery } from '../../lib/contract/payloads.ts';
import { decimalToCents } from '../../lib/money.ts';
import type { ItemId, Many } from '../../lib/contract/answers.ts';
import type { ListingFilters } from './listing-filters.ts';
import type { ListOptions } from './queries.ts';

/** The contract's list query as the catalog queries take it. */
export const listQuerySchema = listQuery.transform((q): ListOptions => ({
  page: q.page,
  perPage: q.per_page,
  sort: q.sort,
  q: q.q || undefined,
  featured: q.featured === undefined ? undefined : q.featured === 'true',
}));

/** What a product or bundle list answers of each item: all of it, or with `fields=id` its id alone (docs/api.md). */
export const listFields = catalogListQuery.pick({ fields: true });

/** The answer of a product or bundle list with `fields=id`. */
export function itemIdsAnswer(
  type: ItemId['type'],
  { rows, total }: { rows: { id: number }[]; total: number },
  options: ListOptions,
): Many<ItemId> {
  return {
    data: rows.map((row) => ({ id: String(row.id), type })),
    meta: { total, page: options.page, perPage: options.perPage },
  };
}

/** The query parameters that may repeat (`option=Size:M&option=Size:L`). */
export const LISTING_REPEATED = ['option'] as const;

/** The filters of a listing query (docs/decisions/192-listing-facets.md): `option=Size:M` grouped by option. */
export function listingFilters(q: {
  in_stock?: 'true' | 'false' | undefined;
  price_min?: string | undefined;
  price_max?: string | undefined;
  option?: string[] | undefined;
}): ListingFilters {
  const options: Record<string, string[]> = {};
  for (const pair of q.option ?? []) {
    const at = pair.indexOf(':');
    const values = (options[pair.slice(0, at)] ??= []);
    const value = pair.slice(at + 1);
    if (!values.includes(value)) values.push(value);
  }
  return {
    inStock: q.in_stock === 'true',
    priceMin: q.price_min === undefined ? undefined : decimalToCents(q.price_min),
    priceMax: q.price_max === undefined ? undefined : decimalToCents(q.price_max),
    options,
  };
}

/** The listing query (the shop's list and a collection's) as `listingPage` takes it. */
export const listingQuerySchema = listingQuery.transform((q): ListOptions => ({
  ...listQuerySchema.parse({ ...q, sort: undefined }),
  sort: q.sort,
  filters: listingFilters(q),
}));
