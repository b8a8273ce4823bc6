/** Crawler detection: crawlers get no error page, the error is only logged (spec §2; applied by src/middleware.ts). */

const CRAWLER =
  /bot|crawl|spider|slurp|facebookexternalhit|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|whatsapp|lighthouse-ci|headlesschrome.*(?:prerender)|bingpreview|yandex|baidu|duckduckgo|semrush|ahrefs|mj12|petalbot|applebot|google-inspectiontool|mediapartners/i;

/** True for search engine and link-preview user agents. */
export function isCrawler(userAgent: string | null | undefined): boolean {
  return !!userAgent && CRAWLER.test(userAgent);
}

/**
 * For a crawler, an error page is not rendered: the error is logged and the status answered with an
 * empty body. Returns that answer, or null for people (who get the error screen).
 */
export function crawlerErrorResponse(request: Request, status: number, message: string): Response | null {
  if (!isCrawler(request.headers.get('user-agent'))) return null;
  console.warn(`[${status}] ${message} (crawler: ${request.headers.get('user-agent')})`);
  // An empty string, not null: Astro renders the 404/500 page in place of a 404/500 without a body.
  return new Response('', { status, headers: { 'x-robots-tag': 'noindex' } });
}
