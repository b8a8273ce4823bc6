/**
 * The API client an on-demand or snapshot render of a catalog page uses: the internal API URL,
 * and the shopper's cookies only when the request is not a snapshot (a snapshot is shared by
 * every shopper, so it must never carry one shopper's tokens).
 */
import { createApiClient, internalApiBaseUrl } from '../api-client.ts';
import { headerCookieJar } from '../cookies.ts';
import type { CatalogApi } from './catalog-api.ts';

export function catalogApiForRequest(request: Request, prerender: boolean): CatalogApi {
  return createApiClient({
    baseUrl: internalApiBaseUrl(process.env),
    cookies: headerCookieJar(prerender ? null : request.headers.get('cookie')),
  });
}

/**
 * The absolute origin for canonical, Open Graph and sitemap URLs: `PUBLIC_SITE_URL` when set (a
 * snapshot is rendered on 127.0.0.1 but served from the real site), the custom domain on one,
 * else the request's own origin.
 */
export function siteOrigin(url: URL, customDomain: string | null, env: Record<string, string | undefined> = process.env): string {
  if (customDomain) return url.hostname === customDomain ? url.origin : `${url.protocol}//${customDomain}`;
  const configured = env.PUBLIC_SITE_URL?.replace(/\/+$/, '');
  return configured || url.origin;
}
