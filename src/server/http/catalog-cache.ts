import { createHash } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { etagMatches } from '../../lib/etag.ts';
import type { AppEnv } from './context.ts';

/**
 * Catalog answers of public stores change only when the catalog does, so browsers and CDNs may keep
 * them 30 s and serve a stale copy while they revalidate; the weak ETag lets a revalidation cost a 304.
 * Restricted stores' answers depend on the shopper's access token: never stored anywhere.
 */
export const PUBLIC_CATALOG_CACHE = 'public, max-age=30, stale-while-revalidate=300';
export const RESTRICTED_CATALOG_CACHE = 'private, no-store';

/** For GET routes that run after `storeContext` (c.var.store set) and answer catalog data only. */
export const catalogCache = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.req.method !== 'GET' || c.res.status !== 200) return;
  const store = c.get('store');
  // A route mounted without storeContext has no store: caching nothing is the safe answer.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  if (!store) return;
  if (store.restricted) {
    c.header('Cache-Control', RESTRICTED_CATALOG_CACHE);
    return;
  }
  const body = new Uint8Array(await c.res.clone().arrayBuffer());
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  c.header('Cache-Control', PUBLIC_CATALOG_CACHE);
  c.header('ETag', etag);
  const ifNoneMatch = c.req.header('if-none-match');
  if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) {
    const headers = new Headers(c.res.headers);
    headers.delete('content-type');
    headers.delete('content-length');
    c.res = undefined;
    c.res = new Response(null, { status: 304, headers });
  }
});
