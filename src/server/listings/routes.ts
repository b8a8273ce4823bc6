import { Hono } from 'hono';
import type { Listing, ListingPage } from '../../lib/contract/answers.ts';
import { centsToDecimal } from '../../lib/money.ts';
import { LISTING_REPEATED, listingQuerySchema } from '../catalog/list-query.ts';
import { NO_FILTERS, type ListingFacets } from '../catalog/listing-filters.ts';
import type { ListOptions } from '../catalog/queries.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { readQuery } from '../http/validation.ts';
import { listingEntries } from './listing-entries.ts';
import { queryIndex, type ListingScope } from './listing-index.ts';

/**
 * One page of a list of products and bundles sorted together: the shop's, a collection's members
 * only, or a search's matches. Which entries and in what order comes from the store's listing index
 * (docs/decisions/200-listing-index.md); the entries themselves (prices, stock, images) are read now.
 */
export async function listingPage(
  { db, listings }: Pick<AppDeps, 'db' | 'listings'>,
  storeId: number,
  options: ListOptions,
  scope: ListingScope = {},
): Promise<ListingPage<Listing>> {
  const index = await listings.of(db, storeId);
  const { refs, total, facets } = queryIndex(index, scope, { ...options, filters: options.filters ?? NO_FILTERS });
  const data = await listingEntries(db, storeId, refs);
  return { data, meta: { total, page: options.page, perPage: options.perPage, facets: facetsAnswer(facets) } };
}

/** The facets as the contract says them: prices as decimal strings. */
function facetsAnswer(facets: ListingFacets): ListingPage<Listing>['meta']['facets'] {
  return {
    in_stock: facets.inStock,
    price: facets.price && { min: centsToDecimal(facets.price.min), max: centsToDecimal(facets.price.max) },
    options: facets.options,
  };
}

/** `…/listings`: a page of products and bundles sorted together (the shop's list). */
export function listingRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) =>
    c.json(await listingPage(deps, c.var.store.id, readQuery(c, listingQuerySchema, LISTING_REPEATED))),
  );

  return app;
}
