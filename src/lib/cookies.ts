import type { StoreAttributes } from './contract/answers.ts';
import { SHOPPER_TOKEN } from './contract/shopper-tokens.ts';

/**
 * Cookie names, paths and lifetimes of spec §6 and §9, plus a tiny strict serialiser that works on the
 * server (Set-Cookie headers) and in the browser (document.cookie). Not the `cookie` package: it would
 * add ≈ 0.85 KB gzip to the store front's boot script, whose budget is 5 KB (docs/decisions/121).
 */

/** Cookie names: where the shopper is, and the shopper's tokens (sent on to the API as headers of the same name). */
export const COOKIE = {
  subdomain: 'subdomain',
  storeSlug: 'store-slug',
  ...SHOPPER_TOKEN,
} as const;

export type CookieName = (typeof COOKIE)[keyof typeof COOKIE];

/** Spec §9: every cookie lasts 7 days. */
export const COOKIE_MAX_AGE_SECONDS = 604_800;

/** Where the shopper is: a store reached by slug prefix, or a custom domain (no prefix). */
export type CookieScope = {
  slug: string | null;
  customDomain: string | null;
};

/** A cookie to write (value) or remove (value null). */
export type CookieSpec = {
  name: CookieName;
  value: string | null;
  path: string;
  maxAge: number;
};

/**
 * The path a cookie is scoped to (spec §9): store-slug `/{slug}` (or `/` without a slug or on a
 * custom domain); the two access tokens `/` on a custom domain, else `/{slug}`; the rest `/`.
 */
export function cookiePath(name: CookieName, scope: CookieScope): string {
  const storePath = scope.slug ? `/${scope.slug}` : '/';
  switch (name) {
    case COOKIE.storeSlug:
    case COOKIE.allowedDomainToken:
    case COOKIE.allowedRecipientToken:
      return scope.customDomain ? '/' : storePath;
    default:
      return '/';
  }
}

/** A cookie to set for seven days at its spec path. */
export function cookieToSet(name: CookieName, value: string, scope: CookieScope): CookieSpec {
  return { name, value, path: cookiePath(name, scope), maxAge: COOKIE_MAX_AGE_SECONDS };
}

/** A cookie removal (same name and path, expired). */
export function cookieToRemove(name: CookieName, scope: CookieScope): CookieSpec {
  return { name, value: null, path: cookiePath(name, scope), maxAge: 0 };
}

/**
 * The only cookie paths this site writes: '/', '/{slug}' and '/restricted'. Anything else (a ';', a space,
 * a control character) could add attributes to the cookie ('/acme; Domain=…'), so it is refused, never written.
 */
const COOKIE_PATH = /^\/[a-z0-9-]*$/;

/**
 * `name=value; Path=…; Max-Age=…; SameSite=Lax[; Secure]` for a Set-Cookie header or document.cookie.
 * The value is percent-encoded; the name is one of COOKIE; a path outside COOKIE_PATH throws.
 */
export function serializeCookie(spec: CookieSpec, options: { secure: boolean }): string {
  if (!COOKIE_PATH.test(spec.path)) throw new TypeError(`cookie path is invalid: ${JSON.stringify(spec.path)}`);
  const parts = [
    `${spec.name}=${spec.value === null ? '' : encodeURIComponent(spec.value)}`,
    `Path=${spec.path}`,
    `Max-Age=${spec.maxAge}`,
  ];
  if (spec.value === null) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  parts.push('SameSite=Lax');
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** Decoded values that hold control characters were not written by us and would be refused as headers. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * Parses a Cookie header (or document.cookie); the first occurrence of a name wins (the most specific
 * path). A value with control characters counts as absent: tokens read here are sent on as API headers.
 */
export function parseCookies(header: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    const raw = part.slice(eq + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A malformed escape is kept as it came.
    }
    if (!CONTROL_CHARACTER.test(value)) out[name] = value;
  }
  return out;
}

/** Read and write access to cookies; the API client takes one (browser or server). */
export type CookieJar = {
  get(name: CookieName): string | undefined;
  /** Writes a cookie; server jars built for snapshots ignore writes. */
  set(spec: CookieSpec): void;
};

/** A jar over document.cookie (browser only). */
export function browserCookieJar(): CookieJar {
  return {
    get: (name) => parseCookies(document.cookie)[name] || undefined,
    set: (spec) => {
      document.cookie = serializeCookie(spec, { secure: location.protocol === 'https:' });
    },
  };
}

/** A read-only jar over a request's Cookie header (server side: snapshots must not write cookies). */
export function headerCookieJar(header: string | null | undefined): CookieJar {
  const values = parseCookies(header);
  return { get: (name) => values[name] || undefined, set: () => {} };
}

/**
 * The cookies of rendering `store` (spec §4 steps 3–4): its slug, the custom domain, and the removal of
 * a stale allowed-recipient token when the store has no allowed lists. Part of the store-loading
 * decision (store-loading.ts); alone here so snapshot pages, which know their store, need not load it.
 */
export function renderCookies(store: StoreAttributes, customDomain: string | null): CookieSpec[] {
  const scope: CookieScope = { slug: store.slug, customDomain };
  const cookies: CookieSpec[] = [cookieToSet(COOKIE.storeSlug, store.slug, scope)];
  if (customDomain) cookies.push(cookieToSet(COOKIE.subdomain, customDomain, scope));
  if (!store.allowedListsPresent) cookies.push(cookieToRemove(COOKIE.allowedRecipientToken, scope));
  return cookies;
}
