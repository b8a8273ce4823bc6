import { Hono } from 'hono';
import type { Listing, Many } from '../../lib/contract/answers.ts';
import { searchQuery } from '../../lib/contract/payloads.ts';
import { searchListings, searchTerms } from '../catalog/search-query.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { readQuery } from '../http/validation.ts';
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
    const query = readQuery(c, searchQuery);
    const options = { page: query.page, perPage: query.per_page, sort: query.sort, featured: query.featured };
    const featured = query.featured === undefined ? undefined : query.featured === 'true';
    const { refs, total } = await searchListings(db, storeId, searchTerms(query.q), { ...options, featured });
    const data = await listingEntries(db, storeId, refs);
    const body: Many<Listing> = { data, meta: { total, page: query.page, perPage: query.per_page } };
    return c.json(body);
  });

  return app;
}
