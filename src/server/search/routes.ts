import { Hono } from 'hono';
import type { Listing, ListingPage } from '../../lib/contract/answers.ts';
import { searchQuery } from '../../lib/contract/payloads.ts';
import { searchListings, searchTerms } from '../catalog/search-query.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { readQuery } from '../http/validation.ts';
import { LISTING_REPEATED, listingFilters } from '../catalog/list-query.ts';
import { facetsAnswer } from '../listings/routes.ts';
import { listingEntries } from '../listings/listing-entries.ts';

/**
 * `…/search?q=`: the shop's list narrowed to what matches the words, best match first unless
 * `sort` says otherwise (docs/decisions/191-search-engine.md). A query without a word (only
 * punctuation) finds nothing rather than everything.
 */
export function searchRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const storeId = c.var.store.id;
    const query = readQuery(c, searchQuery, LISTING_REPEATED);
    const options = { page: query.page, perPage: query.per_page, sort: query.sort, filters: listingFilters(query) };
    const featured = query.featured === undefined ? undefined : query.featured === 'true';
    const { refs, total, facets } = await searchListings(db, storeId, searchTerms(query.q), { ...options, featured });
    const data = await listingEntries(db, storeId, refs);
    const meta = { total, page: query.page, perPage: query.per_page, facets: facetsAnswer(facets) };
    const body: ListingPage<Listing> = { data, meta };
    return c.json(body);
  });

  return app;
}
