import type { AstroGlobal } from 'astro';
import type { Order } from '../../lib/contract/answers.ts';
import { orderForRequest } from '../../lib/page-data/order.ts';
import { markNotFound } from '../catalog/page-context.ts';

/**
 * The order of an order page (/order/{uuid}, /order-confirmation/{uuid}), or the not-found page to
 * answer with. Per shopper: never cached, never snapshotted. An unknown uuid is the one not-found
 * page, with the crawler rule of every error path (spec §2).
 */
export async function loadOrderPage(astro: AstroGlobal): Promise<Order | Response> {
  const order = await orderForRequest(astro.request, astro.locals, astro.params.id);
  astro.response.headers.set('cache-control', 'private, no-store');
  if (order) return order;
  markNotFound(astro.locals, astro.url);
  return astro.rewrite('/404');
}
