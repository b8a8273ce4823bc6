import { Hono } from 'hono';
import type { Bundle, BundleItem, Many, One } from '../../lib/contract/answers.ts';
import { itemIdsAnswer, listFields, listQuerySchema } from '../catalog/list-query.ts';
import { bundleIdsQuery } from '../../lib/contract/payloads.ts';
import {
  bundleItems,
  bundleItemsOfStoreBundles,
  findBundle,
  imagesByProduct,
  listBundleIds,
  listBundles,
} from '../catalog/queries.ts';
import { reshapeBundle, reshapeBundleItem } from '../catalog/reshape.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { intId, readQuery } from '../http/validation.ts';

/** `…/bundles`, `…/bundles/{id}`, `…/bundles/{id}/bundle_items`. */
export function bundleRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const options = readQuery(c, listQuerySchema);
    if (readQuery(c, listFields).fields === 'id')
      return c.json(itemIdsAnswer('bundle', await listBundleIds(db, c.var.store.id, options), options));
    const { rows, total } = await listBundles(db, c.var.store.id, options);
    const items = await bundleItems(
      db,
      rows.map((r) => r.id),
    );
    const images = await imagesByProduct(
      db,
      items.map((i) => i.product_id),
    );
    const body: Many<Bundle> = {
      data: rows.map((row) =>
        reshapeBundle(
          row,
          items.filter((i) => i.bundle_id === row.id),
          images,
        ),
      ),
      meta: { total, page: options.page, perPage: options.perPage },
    };
    return c.json(body);
  });

  app.get('/:id', async (c) => {
    const row = await findBundle(db, c.var.store.id, intId(c.req.param('id')));
    if (!row) throw notFound();
    const items = await bundleItems(db, [row.id]);
    const images = await imagesByProduct(
      db,
      items.map((i) => i.product_id),
    );
    const body: One<Bundle> = { data: reshapeBundle(row, items, images) };
    return c.json(body);
  });

  app.get('/:id/bundle_items', async (c) => {
    const row = await findBundle(db, c.var.store.id, intId(c.req.param('id')));
    if (!row) throw notFound();
    const items = await bundleItems(db, [row.id]);
    const images = await imagesByProduct(
      db,
      items.map((i) => i.product_id),
    );
    const body: Many<BundleItem> = { data: items.map((item) => reshapeBundleItem(item, images)) };
    return c.json(body);
  });

  return app;
}

/**
 * `…/bundle_items?bundle_ids=1,2,3` (extension): the items of many bundles in one call, as
 * `…/bundles/{id}/bundle_items` lists them, one bundle after the other in the order asked. Ids that are not
 * this store's bundles have none. A build reads a list page's bundle items with one call instead of one per
 * bundle (docs/decisions/211-incremental-builds.md).
 */
export function bundleItemRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const { bundle_ids: ids } = readQuery(c, bundleIdsQuery);
    const items = await bundleItemsOfStoreBundles(db, c.var.store.id, ids);
    const images = await imagesByProduct(
      db,
      items.map((i) => i.product_id),
    );
    const byBundle = Map.groupBy(items, (item) => item.bundle_id);
    const body: Many<BundleItem> = {
      data: ids.flatMap((id) => byBundle.get(id) ?? []).map((item) => reshapeBundleItem(item, images)),
    };
    return c.json(body);
  });

  return app;
}
