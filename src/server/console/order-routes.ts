/**
 * The console's orders (docs/decisions/198-console-orders.md): owners and editors list, read and fulfil
 * a store's orders; only owners refund (routes.ts gates `…/refunds`). Behind the console's gate
 * (session, same origin, CSRF) and store check (another store's order is 404).
 */
import { Hono } from 'hono';
import { consoleOrdersQuery, fulfilOrderPayload, refundOrderPayload } from '../../lib/contract/payloads.ts';
import type { AppDeps } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { intId, readJson, readQuery, uuidId } from '../http/validation.ts';
import { listOrders, orderDetail, ORDERS_PAGE_SIZE, storeOrder } from '../orders/console-orders.ts';
import { fulfilOrder } from '../orders/fulfilment.ts';
import { refundOrder, retryRefund } from '../orders/refunds.ts';
import type { ConsoleEnv } from './routes.ts';

export function consoleOrderRoutes(deps: AppDeps) {
  const { db } = deps;
  const app = new Hono<ConsoleEnv>();

  app.get('/', async (c) => {
    const query = readQuery(c, consoleOrdersQuery);
    const { data, total } = await listOrders(db, c.var.consoleStore.id, query);
    return c.json({ data, meta: { total, page: query.page, perPage: ORDERS_PAGE_SIZE } });
  });

  app.get('/:id', async (c) => {
    const order = await storeOrder(db, c.var.consoleStore.id, uuidId(c.req.param('id')));
    if (!order) throw notFound();
    return c.json({ data: await orderDetail(db, order) });
  });

  app.post('/:id/refunds', async (c) => {
    const orderId = uuidId(c.req.param('id'));
    const request = await readJson(c, refundOrderPayload);
    const order = await refundOrder(deps, c.var, orderId, request);
    return c.json({ data: await orderDetail(db, order) }, 201);
  });

  // A refund the provider has not confirmed yet, asked again: its key makes that safe (ADR 198).
  app.post('/:id/refunds/:refundId/retry', async (c) => {
    const orderId = uuidId(c.req.param('id'));
    const order = await retryRefund(deps, c.var, orderId, intId(c.req.param('refundId')));
    return c.json({ data: await orderDetail(db, order) });
  });

  app.post('/:id/fulfillment', async (c) => {
    const orderId = uuidId(c.req.param('id'));
    const shipment = await readJson(c, fulfilOrderPayload);
    const order = await fulfilOrder(deps, c.var, orderId, shipment);
    return c.json({ data: await orderDetail(db, order) });
  });

  return app;
}
