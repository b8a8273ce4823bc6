/**
 * `/{slug}/sitemap.xml` (or `/sitemap.xml` on the store's own domain): every catalog page of a
 * public store. Restricted stores have none (404), so they appear in no sitemap.
 */
import type { APIRoute } from 'astro';
import { sitemapLinks, sitemapXml } from '../../lib/catalog/sitemap.ts';
import { listCatalogPaths } from '../../lib/page-data/catalog-pages.ts';
import { catalogApiForRequest, siteOrigin } from '../../lib/page-data/request-api.ts';

export const GET: APIRoute = async ({ request, url, locals }) => {
  const store = locals.store;
  if (!store || store.allowedListsPresent) {
    return new Response('Not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const api = catalogApiForRequest(request, locals);
  const origin = siteOrigin(url, locals.customDomain, locals.siteUrl);
  const links = sitemapLinks(await listCatalogPaths(api, store.slug), store.slug, locals.linkBase);
  return new Response(sitemapXml(links.map((link) => origin + link)), {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });
};
