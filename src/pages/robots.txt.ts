/**
 * `/robots.txt` of the shared host: per-shopper pages are disallowed under every store prefix.
 * Store sitemaps live at `/{slug}/sitemap.xml`; they are not listed here because the storefront
 * has no API call that lists stores (and listing them would name restricted ones).
 */
import type { APIRoute } from 'astro';
import { robotsTxt } from '../lib/catalog/sitemap.ts';

export const GET: APIRoute = () =>
  new Response(robotsTxt({ prefixed: true }), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
