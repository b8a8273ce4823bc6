/**
 * The order pages' data: `GET /cart/{order_uuid}`, answered only to the shopper who has the uuid.
 * Orders are per-shopper, so these pages are always rendered on demand and never snapshotted.
 */
import type { Order } from '../contract/answers.ts';
import { isApiError } from '../api-error.ts';
import { bindCalls, createRequester, getOrder } from '../api-client/index.ts';
import type { RenderApi } from './request-api.ts';
import { headerCookieJar } from '../cookies.ts';

export type OrderApi = {
  getOrder(orderUuid: string): Promise<Order>;
};

export type OrderParams = {
  slug: string;
  id: string | undefined;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order, or null when there is none with this uuid in this store (the page answers 404). */
export async function loadOrder(api: OrderApi, { slug, id }: OrderParams): Promise<Order | null> {
  if (!id || !UUID.test(id)) return null;
  try {
    const order = await api.getOrder(id);
    // An order of another store is not shown under this one.
    return order.orderDetails.storeSlug === slug ? order : null;
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 422 || error.status === 400)) return null;
    throw error;
  }
}

/** The order for an on-demand page request, with the shopper's cookies; null for snapshot requests (no shopper). */
export async function orderForRequest(
  request: Request,
  locals: { store: { slug: string } | null; prerender: boolean; api: RenderApi },
  id: string | undefined,
): Promise<Order | null> {
  if (!locals.store || locals.prerender) return null;
  const api = bindCalls(
    createRequester({
      baseUrl: locals.api.baseUrl,
      fetch: locals.api.fetch,
      cookies: headerCookieJar(request.headers.get('cookie')),
    }),
    { getOrder },
  );
  return loadOrder(api, { slug: locals.store.slug, id });
}
