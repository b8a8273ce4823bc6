import { Hono } from 'hono';
import type { Collection, Many, One } from '../../lib/contract/answers.ts';
import { LISTING_REPEATED, listingQuerySchema } from '../catalog/list-query.ts';
import { findCollection, listCollections } from '../catalog/queries.ts';
import { reshapeCollection } from '../catalog/reshape.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { readQuery } from '../http/validation.ts';
import { isCollectionHandle } from '../../lib/slug.ts';
import { listingPage } from '../listings/routes.ts';

/** `…/collections`, `…/collections/{handle}` and its products and bundles, `…/collections/{handle}/listings`. */
export function collectionRoutes(deps: AppDeps) {
  const { db } = deps;
  const app = new Hono<AppEnv>();

  const collectionOf = async (storeId: number, handle: string) => {
    // A malformed handle names no collection: 404 without a query.
    const row = isCollectionHandle(handle) ? await findCollection(db, storeId, handle) : undefined;
    if (!row) throw notFound();
    return row;
  };

  app.get('/', async (c) => {
    const body: Many<Collection> = { data: (await listCollections(db, c.var.store.id)).map(reshapeCollection) };
    return c.json(body);
  });

  app.get('/:handle', async (c) => {
    const body: One<Collection> = {
      data: reshapeCollection(await collectionOf(c.var.store.id, c.req.param('handle'))),
    };
    return c.json(body);
  });

  app.get('/:handle/listings', async (c) => {
    const storeId = c.var.store.id;
    const options = readQuery(c, listingQuerySchema, LISTING_REPEATED);
    const collection = await collectionOf(storeId, c.req.param('handle'));
    return c.json(await listingPage(deps, storeId, options, { collectionId: collection.id }));
  });

  return app;
}
