/**
 * What every catalog page needs from the request: the store (from the middleware), its links,
 * the API client for this render and the absolute URLs for SEO tags.
 */
import type { StoreAttributes } from '../../lib/contract/answers.ts';
import type { CatalogApi } from '../../lib/page-data/catalog-api.ts';
import { catalogApiForRequest, siteOrigin } from '../../lib/page-data/request-api.ts';
import { pageNotFoundUnmatched } from '../../lib/error-catalogue.ts';
import { storeLinks, storeUrl, type StoreLinks } from '../../lib/store-links.ts';

export type CatalogPageContext = {
  store: StoreAttributes;
  slug: string;
  links: StoreLinks;
  api: CatalogApi;
  /** `https://site` without a trailing slash. */
  origin: string;
  /**
   * The store's links as absolute canonical URLs: on its own domain when it has one, whichever address
   * (slug or domain) this page was reached by, so a page has one canonical URL.
   */
  canonical: StoreLinks;
  /** A restricted store's page: never indexed. */
  noindex: boolean;
};

type AstroLike = {
  request: Request;
  url: URL;
  locals: App.Locals;
};

/** Null when no store was loaded (the middleware then redirected; this is a safety net). */
export function catalogPageContext({ request, url, locals }: AstroLike): CatalogPageContext | null {
  const store = locals.store;
  if (!store) return null;
  const origin = siteOrigin(url, locals.customDomain, locals.siteUrl);
  return {
    store,
    slug: store.slug,
    links: storeLinks(locals.linkBase),
    api: catalogApiForRequest(request, locals),
    origin,
    canonical: storeLinks(
      storeUrl({ slug: store.slug, customDomain: store.customDomain ?? null }, '/', origin).href.replace(/\/$/, ''),
    ),
    noindex: store.allowedListsPresent,
  };
}

/** Marks the request as not found (spec §8 'Page not found: {path}') for the /404 page to show. */
export function markNotFound(locals: App.Locals, url: URL): void {
  const browserPath = locals.customDomain ? url.pathname.replace(/^\/[^/]+/, '') || '/' : url.pathname;
  locals.pageError = { status: 404, message: pageNotFoundUnmatched(browserPath) };
}
