import { createHash } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { etag, RETAINED_304_HEADERS } from 'hono/etag';
import type { AppEnv } from './context.ts';

/**
 * Catalog answers of public stores change only when the catalog does, so browsers and CDNs may keep
 * them 30 s and serve a stale copy while they revalidate; the weak ETag lets a revalidation cost a 304.
 * Restricted stores' answers depend on the shopper's access token: never stored anywhere.
 */
export const PUBLIC_CATALOG_CACHE = 'public, max-age=30, stale-while-revalidate=300';
export const RESTRICTED_CATALOG_CACHE = 'private, no-store';

/**
 * Hono's ETag (a SHA-1 of the body, 304 on a match). A cross-origin storefront revalidates too, so
 * its 304 keeps the CORS headers beside the ones HTTP asks for. The digest is node:crypto's: the
 * default, Web Crypto's async one, costs 65 µs more per answer (docs/decisions/003-node-front-serving.md).
 */
const catalogEtag = etag({
  weak: true,
  generateDigest: (body) => {
    const digest = createHash('sha1').update(body).digest();
    return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength);
  },
  retainedHeaders: [...RETAINED_304_HEADERS, 'access-control-allow-origin', 'access-control-expose-headers'],
});

/** For GET routes that run after `storeContext` (c.var.store set) and answer catalog data only. */
export const catalogCache = createMiddleware<AppEnv>(async (c, next) => {
  const store = c.get('store');
  // A route mounted without storeContext has no store: caching nothing is the safe answer.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
  if (!store) return next();
  const cacheControl = store.restricted ? RESTRICTED_CATALOG_CACHE : PUBLIC_CATALOG_CACHE;
  const answer = async () => {
    await next();
    if (c.req.method === 'GET' && c.res.status === 200) c.header('Cache-Control', cacheControl);
  };
  return store.restricted ? answer() : catalogEtag(c, answer);
});
