/**
 * The slug grammar: lower-case letters, digits and hyphens, starting with a letter or digit, at most
 * 63 characters. A slug becomes a path segment and a cookie path (`/{slug}`), so nothing outside it may
 * ever be taken for one: a ';' in a cookie path would add attributes to the cookie.
 */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** True when `value` is a well-formed store slug. */
export function isSlug(value: string): boolean {
  return SLUG_PATTERN.test(value);
}

/** True for a well-formed collection handle: the slug's grammar, as it is a path segment too (`/collections/{handle}`). */
export function isCollectionHandle(value: string | undefined): value is string {
  return value !== undefined && SLUG_PATTERN.test(value);
}
