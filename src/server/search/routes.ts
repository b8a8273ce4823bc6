import { Hono } from 'hono';
import type { Listing, ListingPage } from '../../lib/contract/answers.ts';
import { searchQuery } from '../../lib/contract/payloads.ts';
import { searchMatches, searchTerms } from '../catalog/search-query.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { readQuery } from '../http/validation.ts';
import { LISTING_REPEATED, listingFilters } from '../catalog/list-query.ts';
import { listingPage } from '../listings/routes.ts';

/**
 * `…/search?q=`: the shop's list narrowed to what matches the words, best match first unless
 * `sort` says otherwise (docs/decisions/191-search-engine.md). A query without a word (only
 * punctuation) finds nothing rather than everything.
 */
export function searchRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const storeId = c.var.store.id;
    const query = readQuery(c, searchQuery, LISTING_REPEATED);
    const options = {
      page: query.page,
      perPage: query.per_page,
      sort: query.sort,
      q: undefined,
      featured: query.featured === undefined ? undefined : query.featured === 'true',
      filters: listingFilters(query),
    };
    const scores = await searchMatches(deps.db, storeId, searchTerms(query.q));
    const body: ListingPage<Listing> = await listingPage(deps, storeId, options, { scores });
    return c.json(body);
  });

  return app;
}
