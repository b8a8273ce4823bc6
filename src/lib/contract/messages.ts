/**
 * The fixed messages of spec §7–§8, word for word, as the API answers them and the storefront shows or
 * compares them. Kept apart from notificationFor (error-catalogue.ts, which re-exports all of this) so
 * the boot script carries only the strings it uses.
 */

export const MESSAGES = {
  unexpected: 'Sorry an unexpected error occurred, please try again.',
  unableFetchStore: 'Unable Fetch Store',
  unableToGetStorePrefix: 'Unable to get store:',
  cartFetchFailed: 'Error fetching cart details',
  countryLookupFailed: 'unable to fetch the country',
  restricted: 'The store has restricted access. Please contact Admin.',
  recordNotFound: 'Record not found',
} as const;

/**
 * The API's 401 to a `recipient-token` it did not issue. The client never shows it (it drops the token and
 * asks again without one), so it stays out of MESSAGES, which the boot script carries whole.
 */
export const CART_TOKEN_REFUSED = 'Your cart session is not valid. Please reload the page.';

/** Spec §8: a route whose validate check fails. */
export function pageNotFoundValidate(path: string): string {
  return `Page Not Found: ${path}`;
}

/** Spec §8: an unmatched route. */
export function pageNotFoundUnmatched(path: string): string {
  return `Page not found: ${path}`;
}

/** How a failed store load is reported to error tracking: 'Unable to get store: acme'. */
export function unableToGetStoreReport(slugOrDomain: string): string {
  return `${MESSAGES.unableToGetStorePrefix} ${slugOrDomain}`;
}
