import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { assertAccess } from '../http/store-access.ts';
import { uuidId } from '../http/validation.ts';
import { reshapeOrder } from './reshape.ts';

/** `GET /cart/{order_uuid}`: the order's random uuid is what grants reading it. */
export function orderRoutes({ db, clock }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/:orderId', async (c) => {
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', uuidId(c.req.param('orderId')))
      .executeTakeFirst();
    if (!order) throw notFound();
    const store = await db.selectFrom('stores').selectAll().where('id', '=', order.store_id).executeTakeFirstOrThrow();
    await assertAccess(db, store, (name) => c.req.header(name), clock);
    return c.json(reshapeOrder(order, store.slug));
  });

  return app;
}
