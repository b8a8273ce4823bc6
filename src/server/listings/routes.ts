import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { Listing, ListingPage } from '../../lib/contract/answers.ts';
import { centsToDecimal } from '../../lib/money.ts';
import { LISTING_REPEATED, listingQuerySchema } from '../catalog/list-query.ts';
import type { ListingFacets } from '../catalog/listing-filters.ts';
import { listListings, type ListOptions } from '../catalog/queries.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { readQuery } from '../http/validation.ts';
import { listingEntries } from './listing-entries.ts';

/** One page of the shop's list of products and bundles, or of one collection's members only. */
export async function listingPage(
  db: Kysely<Database>,
  storeId: number,
  options: ListOptions,
  collectionId?: number,
): Promise<ListingPage<Listing>> {
  const { refs, total, facets } = await listListings(db, storeId, options, collectionId);
  const data = await listingEntries(db, storeId, refs);
  return { data, meta: { total, page: options.page, perPage: options.perPage, facets: facetsAnswer(facets) } };
}

/** The facets as the contract says them: prices as decimal strings. */
export function facetsAnswer(facets: ListingFacets): ListingPage<Listing>['meta']['facets'] {
  return {
    in_stock: facets.inStock,
    price: facets.price && { min: centsToDecimal(facets.price.min), max: centsToDecimal(facets.price.max) },
    options: facets.options,
  };
}

/** `…/listings`: a page of products and bundles sorted together (the shop's list). */
export function listingRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) =>
    c.json(await listingPage(db, c.var.store.id, readQuery(c, listingQuerySchema, LISTING_REPEATED))),
  );

  return app;
}
