import { Hono } from 'hono';
import type { Listing, Many } from '../../lib/contract/answers.ts';
import { listQuerySchema } from '../catalog/list-query.ts';
import { listListings } from '../catalog/queries.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { readQuery } from '../http/validation.ts';
import { listingEntries } from './listing-entries.ts';

/** `…/listings`: a page of products and bundles sorted together (the shop's list). */
export function listingRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const storeId = c.var.store.id;
    const options = readQuery(c, listQuerySchema);
    const { refs, total } = await listListings(db, storeId, options);
    const data = await listingEntries(db, storeId, refs);
    const body: Many<Listing> = { data, meta: { total, page: options.page, perPage: options.perPage } };
    return c.json(body);
  });

  return app;
}
