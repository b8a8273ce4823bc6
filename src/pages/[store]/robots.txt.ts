/**
 * `/robots.txt` on a store's own domain (the front maps it to `/{slug}/robots.txt`): the
 * store's sitemap, or everything disallowed for a restricted store. Under a slug prefix this
 * path is not a robots file: 404.
 */
import type { APIRoute } from 'astro';
import { robotsTxt } from '../../lib/catalog/sitemap.ts';
import { siteOrigin } from '../../lib/page-data/request-api.ts';

export const GET: APIRoute = ({ url, locals }) => {
  const store = locals.store;
  if (!locals.customDomain || !store) {
    return new Response('Not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const body = store.allowedListsPresent
    ? robotsTxt({ disallowAll: true, prefixed: false })
    : robotsTxt({ sitemap: `${siteOrigin(url, locals.customDomain, locals.siteUrl)}/sitemap.xml`, prefixed: false });
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
