import { Hono } from 'hono';
import type { Bundle, BundleItem, Many, One } from '../../lib/contract/answers.ts';
import { listQuerySchema } from '../catalog/list-query.ts';
import { bundleItems, findBundle, imagesByProduct, listBundles } from '../catalog/queries.ts';
import { reshapeBundle, reshapeBundleItem } from '../catalog/reshape.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { intId, readQuery } from '../http/validation.ts';

/** `…/bundles`, `…/bundles/{id}`, `…/bundles/{id}/bundle_items`. */
export function bundleRoutes({ db }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const options = readQuery(c, listQuerySchema);
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
