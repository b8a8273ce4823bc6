/** sitemap.xml and robots.txt bodies (pure, so the rules are tested without a server). */

import { escapeMarkup as xmlEscape } from '../markup-escape.ts';

/** A sitemap of absolute URLs. */
export function sitemapXml(urls: readonly string[]): string {
  const entries = urls.map((url) => `  <url><loc>${xmlEscape(url)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
}

/** The pages of a store that a sitemap lists: prefixed catalog paths made into store links. */
export function sitemapLinks(catalogPaths: readonly string[], slug: string, linkBase: string): string[] {
  const prefix = `/${slug}`;
  return catalogPaths
    .filter((path) => !path.endsWith('.xml'))
    .map((path) => {
      const relative = path === prefix ? '/' : path.slice(prefix.length);
      if (!linkBase) return relative;
      return relative === '/' ? linkBase : linkBase + relative;
    });
}

// Per-shopper and technical pages: nothing for a search engine.
const PRIVATE_PATHS = ['cart', 'checkout', 'order/', 'order-confirmation/', 'refresh', 'restricted'];

/**
 * robots.txt. On the shared host: per-shopper pages disallowed under any store prefix.
 * On a store's own domain: its sitemap, or everything disallowed for a restricted store.
 */
export function robotsTxt(options: { sitemap?: string | null; disallowAll?: boolean; prefixed: boolean }): string {
  const lines = ['User-agent: *'];
  if (options.disallowAll) {
    lines.push('Disallow: /');
  } else {
    for (const path of PRIVATE_PATHS) {
      lines.push(`Disallow: /${path}`);
      if (options.prefixed) lines.push(`Disallow: /*/${path}`);
    }
    lines.push('Disallow: /api/');
  }
  if (options.sitemap) lines.push('', `Sitemap: ${options.sitemap}`);
  return `${lines.join('\n')}\n`;
}
