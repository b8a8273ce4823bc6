/**
 * `/{slug}/sitemap.xml` (or `/sitemap.xml` on the store's own domain): every catalog page of a
 * public store. Restricted stores have none (404), so they appear in no sitemap.
 */
import type { APIRoute } from 'astro';
import { sitemapLinks, sitemapXml } from '../../lib/catalog/sitemap.ts';
import { listCatalogPaths } from '../../lib/page-data/catalog-pages.ts';
import { catalogApiForRequest, siteOrigin } from '../../lib/page-data/request-api.ts';
import { linkBaseFor, storeUrl } from '../../lib/store-links.ts';

export const GET: APIRoute = async ({ request, url, locals }) => {
  const store = locals.store;
  if (!store || store.allowedListsPresent) {
    return new Response('Not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const api = catalogApiForRequest(request, locals);
  // The pages' canonical URLs: on the store's own domain when it has one, whichever address was asked.
  const customDomain = store.customDomain ?? null;
  const home = storeUrl({ slug: store.slug, customDomain }, '/', siteOrigin(url, locals.customDomain, locals.siteUrl));
  const paths = await listCatalogPaths(api, store.slug);
  const links = sitemapLinks(paths, store.slug, linkBaseFor(store.slug, customDomain));
  return new Response(sitemapXml(links.map((link) => home.origin + link)), {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });
};
