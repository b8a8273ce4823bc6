/**
 * The store-loading rules of spec §4 and §8 as one pure function, used by the middleware
 * (on-demand pages) and by the client boot script (prerendered pages).
 *
 * Call it without `outcome`; when it answers `{ kind: 'fetch' }`, fetch the store as told and call
 * it again with the outcome. Every other answer is final: render, or redirect (with cookies).
 */
import { isApiError } from './api-error.ts';
import type { StoreAttributes, StoreInfo } from './contract/answers.ts';
import { COOKIE, cookieToSet, renderCookies, type CookieScope, type CookieSpec } from './cookies.ts';
import { MESSAGES, unableToGetStoreReport } from './contract/messages.ts';
import { NETWORK_PATH, isSitePath } from './site-urls.ts';
import { isSlug } from './slug.ts';

/** Pages that need no store (spec §4), reachable with or without a slug prefix. */
export const STORELESS_PAGES = ['404', 'home', 'refresh', 'restricted', 'store-not-found'] as const;

/** First segments of store pages without a prefix: on a non-custom host they mean "no slug". */
export const STORE_PAGE_SEGMENTS = [
  'shop',
  'search',
  'cart',
  'checkout',
  'product',
  'product-bundle',
  'order',
  'order-confirmation',
  'policies',
  'collections',
] as const;

/** Query flag on /404 after a store fetch got no answer (the page then shows 'Unable Fetch Store'). */
export const LOAD_ERROR_PARAM = 'load-error';

export const ROUTE = {
  notFound: '/404',
  refresh: '/refresh',
  restricted: '/restricted',
  storeNotFound: '/store-not-found',
} as const;

/** What came back from fetching the store. */
export type FetchOutcome =
  | { kind: 'store'; store: StoreAttributes }
  /** The API answered with an error status; `message` from its body. */
  | { kind: 'error'; status: number; message: string | null }
  /** No answer at all. */
  | { kind: 'no-answer' };

/**
 * The outcome of one store call (`getStore` or `getStoreByDomain`): the one classification of an
 * answer that the front, the middleware and the boot script share. An error answer carries its
 * body's message; anything else thrown (a network failure, a timeout) is no answer at all, and goes
 * to `onNoAnswer` so a server can log its cause.
 */
export async function fetchOutcome(
  call: () => Promise<StoreInfo>,
  onNoAnswer?: (error: unknown) => void,
): Promise<FetchOutcome> {
  try {
    return { kind: 'store', store: (await call()).data.attributes };
  } catch (error) {
    if (isApiError(error)) return { kind: 'error', status: error.status, message: error.body?.message ?? null };
    onNoAnswer?.(error);
    return { kind: 'no-answer' };
  }
}

export type StoreLoadingInput = {
  /** The path the browser shows (unprefixed on a custom domain), e.g. '/vip/shop'. */
  path: string;
  /** The query string with or without '?'. */
  search: string;
  /** The host when it is a custom store domain, else null. */
  customDomain: string | null;
  outcome?: FetchOutcome;
};

export type StoreLookup = { by: 'slug'; slug: string } | { by: 'domain'; domain: string };

export type RedirectReason =
  'no-store' | 'access-link' | 'restricted' | 'store-not-found' | 'error-answer' | 'no-answer';

export type StoreLoadingDecision =
  | { kind: 'storeless' }
  | { kind: 'fetch'; lookup: StoreLookup }
  | { kind: 'render'; store: StoreAttributes; linkBase: string; cookies: CookieSpec[] }
  | {
      kind: 'redirect';
      reason: RedirectReason;
      location: string;
      /** Replace the history entry (the access-link URL must not stay in history). */
      replace: boolean;
      cookies: CookieSpec[];
      /** Set the load-error flag with this message (spec §8: 'Unable Fetch Store'). */
      loadError?: string;
      /** Send this to error reporting. */
      report?: string;
    };

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/** True for /404, /home, /refresh, /restricted, /store-not-found, with or without a slug prefix. */
export function isStorelessPath(path: string): boolean {
  const segs = segments(path);
  const page = segs.length === 1 ? segs[0] : segs.length === 2 ? segs[1] : undefined;
  return page !== undefined && (STORELESS_PAGES as readonly string[]).includes(page);
}

/**
 * True for '/' and the unprefixed store pages (/shop, /product/7): on a shared host they name no store.
 * Other paths that hold no slug (/robots.txt) are simply pages, or unknown routes.
 */
export function namesNoStore(path: string): boolean {
  const first = segments(path)[0];
  return first === undefined || (STORE_PAGE_SEGMENTS as readonly string[]).includes(first);
}

/**
 * The slug a path names on a non-custom host, or null (no segment, a store page name such as /shop, or
 * anything outside the slug grammar: the slug becomes a cookie path, see slug.ts).
 */
export function slugFromPath(path: string): string | null {
  const first = segments(path)[0];
  if (!first) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(first);
  } catch {
    return null;
  }
  if (!isSlug(slug)) return null;
  return (STORE_PAGE_SEGMENTS as readonly string[]).includes(slug) ? null : slug;
}

/**
 * The `to` of /refresh, made safe: only a same-origin path ('/…', not '//host' or '/\\host',
 * no scheme, no control characters) is kept; anything else becomes '/'. The check is made again on
 * the normalised path, since dot segments ('/.//host', '/x/..//host', '/%2e//host') normalise to '//host'.
 */
export function safeReturnPath(to: string | null | undefined): string {
  if (!to || !isSitePath(to)) return '/';
  try {
    const base = 'http://same-origin.invalid';
    const url = new URL(to, base);
    const path = `${url.pathname}${url.search}${url.hash}`;
    if (url.origin !== base || NETWORK_PATH.test(path)) return '/';
    return path;
  } catch {
    return '/';
  }
}

/** `/refresh?to=…` for a path. */
export function refreshLocation(to: string): string {
  return `${ROUTE.refresh}?to=${encodeURIComponent(to)}`;
}

/** Spec §4 and §8: what to do for this navigation. */
export function decideStoreLoading(input: StoreLoadingInput): StoreLoadingDecision {
  const { path, customDomain, outcome } = input;
  if (isStorelessPath(path)) return { kind: 'storeless' };

  // Step 1: a slug from the path, or the custom domain.
  const slug = customDomain ? null : slugFromPath(path);
  if (!customDomain && !slug) {
    return { kind: 'redirect', reason: 'no-store', location: ROUTE.notFound, replace: true, cookies: [] };
  }
  const scope: CookieScope = { slug, customDomain };

  // Step 2: access tokens in the query become cookies, and the URL loses them.
  const query = new URLSearchParams(input.search);
  const uuid = query.get('uuid');
  const token = query.get('token');
  if (uuid !== null || token !== null) {
    const cookies: CookieSpec[] = [];
    if (uuid) cookies.push(cookieToSet(COOKIE.allowedRecipientToken, uuid, scope));
    if (token) cookies.push(cookieToSet(COOKIE.allowedDomainToken, token, scope));
    query.delete('uuid');
    query.delete('token');
    const rest = query.toString();
    const to = `${path}${rest ? `?${rest}` : ''}`;
    return { kind: 'redirect', reason: 'access-link', location: refreshLocation(to), replace: true, cookies };
  }

  // Step 3: fetch the store.
  if (!outcome) {
    return {
      kind: 'fetch',
      lookup: customDomain ? { by: 'domain', domain: customDomain } : { by: 'slug', slug: slug! },
    };
  }

  if (outcome.kind === 'store') {
    const store = outcome.store;
    // Same rule as store-links.ts linkBaseFor, inlined to keep that module out of the boot script.
    return {
      kind: 'render',
      store,
      linkBase: customDomain ? '' : `/${store.slug}`,
      cookies: renderCookies(store, customDomain),
    };
  }

  // Step 5 and spec §8.
  // Spec §8 names the status and the message: a 422 or 404 with another message is 'any other error'.
  if (outcome.kind === 'error' && outcome.status === 422 && outcome.message === MESSAGES.restricted) {
    const cookies: CookieSpec[] = [];
    if (slug) {
      cookies.push(cookieToSet(COOKIE.storeSlug, slug, scope));
      // /restricted lies outside /{slug}: it gets its own copy so it can name the store.
      cookies.push({ ...cookieToSet(COOKIE.storeSlug, slug, scope), path: ROUTE.restricted });
    }
    return { kind: 'redirect', reason: 'restricted', location: ROUTE.restricted, replace: true, cookies };
  }
  if (outcome.kind === 'error' && outcome.status === 404 && outcome.message === MESSAGES.recordNotFound) {
    return { kind: 'redirect', reason: 'store-not-found', location: ROUTE.storeNotFound, replace: true, cookies: [] };
  }
  if (outcome.kind === 'error') {
    return { kind: 'redirect', reason: 'error-answer', location: ROUTE.notFound, replace: true, cookies: [] };
  }
  return {
    kind: 'redirect',
    reason: 'no-answer',
    // The flag travels to the /404 page in the query so it can show the message.
    location: `${ROUTE.notFound}?${LOAD_ERROR_PARAM}=1`,
    replace: true,
    cookies: [],
    loadError: MESSAGES.unableFetchStore,
    report: unableToGetStoreReport(slug ?? customDomain ?? ''),
  };
}
