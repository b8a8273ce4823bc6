import { createRequester } from '../api-client/index.ts';
import { headerCookieJar } from '../cookies.ts';
import { catalogApi, type CatalogApi } from './catalog-api.ts';

/** The API a server-side render calls (`locals.api`): where it is, and the `fetch` that reaches it. */
export type RenderApi = {
  baseUrl: string;
  fetch: typeof fetch;
};

/**
 * The API client an on-demand or snapshot render of a catalog page uses: the render's API, and the
 * shopper's cookies only when the request is not a snapshot (a snapshot is shared by every shopper,
 * so it must never carry one shopper's tokens).
 */
export function catalogApiForRequest(request: Request, locals: { prerender: boolean; api: RenderApi }): CatalogApi {
  return catalogApi(
    createRequester({
      baseUrl: locals.api.baseUrl,
      fetch: locals.api.fetch,
      cookies: headerCookieJar(locals.prerender ? null : request.headers.get('cookie')),
    }),
  );
}

/**
 * The absolute origin for canonical, Open Graph and sitemap URLs: `PUBLIC_SITE_URL` when set (a
 * snapshot is rendered on 127.0.0.1 but served from the real site), the custom domain on one,
 * else the request's own origin.
 */
export function siteOrigin(url: URL, customDomain: string | null, siteUrl: string | undefined): string {
  if (customDomain) return url.hostname === customDomain ? url.origin : `${url.protocol}//${customDomain}`;
  const configured = siteUrl?.replace(/\/+$/, '');
  return configured || url.origin;
}
