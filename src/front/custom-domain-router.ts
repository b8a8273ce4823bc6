import { COOKIE, parseCookies } from '../lib/cookies.ts';
import { HEADER, MESSAGE, type StoreInfo } from '../lib/api-types.ts';

/** Pages that need no store; on a custom domain they are served as they are. */
const STORELESS = new Set(['/404', '/home', '/refresh', '/restricted', '/store-not-found']);

export type DomainRoute =
  | { kind: 'store'; slug: string; path: string }
  | { kind: 'pass'; path: string }
  /** The store could not be loaded: send the browser to the spec §8 page. */
  | { kind: 'redirect'; location: string };

type ApiFetch = (request: Request) => Promise<Response>;

interface CachedStore {
  slug: string;
  until: number;
}

/**
 * Maps a custom-domain request to the store's prefixed route (`/shop` → `/{slug}/shop`).
 * Public stores are cached for a short while; restricted answers depend on the shopper's cookies
 * and are never cached.
 */
export class CustomDomainRouter {
  readonly #api: ApiFetch;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, CachedStore>();

  constructor(api: ApiFetch, ttlMs = 30_000) {
    this.#api = api;
    this.#ttlMs = ttlMs;
  }

  async route(host: string, pathname: string, search: URLSearchParams, cookieHeader: string | undefined, now = Date.now()): Promise<DomainRoute> {
    // Storeless pages, and entry links carrying access tokens (spec §4 step 2: cookies first), go through untouched.
    if (STORELESS.has(pathname.replace(/\/$/, '')) || search.has('uuid') || search.has('token')) {
      return { kind: 'pass', path: pathname };
    }
    const slug = await this.#resolve(host, cookieHeader, now);
    if (slug.kind !== 'store') return { kind: 'redirect', location: slug.redirect };
    return { kind: 'store', slug: slug.slug, path: `/${slug.slug}${pathname === '/' ? '' : pathname}` };
  }

  async #resolve(host: string, cookieHeader: string | undefined, now: number): Promise<{ kind: 'store'; slug: string } | { kind: 'other'; redirect: string }> {
    const cached = this.#cache.get(host);
    if (cached && cached.until > now) return { kind: 'store', slug: cached.slug };

    const cookies = parseCookies(cookieHeader);
    const headers = new Headers();
    for (const [cookie, header] of [
      [COOKIE.allowedRecipientToken, HEADER.allowedRecipientToken],
      [COOKIE.allowedDomainToken, HEADER.allowedDomainToken],
      [COOKIE.browserToken, HEADER.browserToken],
    ] as const) {
      const value = cookies[cookie];
      if (value) headers.set(header, value);
    }
    const restricted = headers.has(HEADER.allowedRecipientToken) || headers.has(HEADER.allowedDomainToken) || headers.has(HEADER.browserToken);
    let response: Response;
    try {
      response = await this.#api(new Request(`http://internal/api/store_front?custom_domain=${encodeURIComponent(host)}`, { headers }));
    } catch {
      return { kind: 'other', redirect: '/404' };
    }
    if (response.ok) {
      const info = (await response.json()) as StoreInfo;
      const slug = info.data.attributes.slug;
      if (!restricted && !info.data.attributes.allowedListsPresent) this.#cache.set(host, { slug, until: now + this.#ttlMs });
      return { kind: 'store', slug };
    }
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    if (response.status === 422 && body.message === MESSAGE.restricted) return { kind: 'other', redirect: '/restricted' };
    if (response.status === 404) return { kind: 'other', redirect: '/store-not-found' };
    return { kind: 'other', redirect: '/404' };
  }
}
