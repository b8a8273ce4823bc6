/**
 * The slug grammar: lower-case letters, digits and hyphens, starting with a letter or digit, at most
 * 63 characters. A slug becomes a path segment and a cookie path (`/{slug}`), so nothing outside it may
 * ever be taken for one: a ';' in a cookie path would add attributes to the cookie.
 */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * Paths of the site's own at its root: a store with one of these slugs would be hidden behind them (or
 * hide them: `/admin` is the console), so the catalog format refuses them.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin',
  'api',
  'builds',
  'health',
  'home',
  'icons',
  'images',
  'refresh',
  'restricted',
  'store-not-found',
  '404',
  '500',
]);

/** True when `value` is a well-formed store slug. */
export function isSlug(value: string): boolean {
  return SLUG_PATTERN.test(value);
}

/** True for a well-formed collection handle: the slug's grammar, as it is a path segment too (`/collections/{handle}`). */
export function isCollectionHandle(value: string | undefined): value is string {
  return value !== undefined && SLUG_PATTERN.test(value);
}
