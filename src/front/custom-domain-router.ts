import { LRUCache } from 'lru-cache';
import type { StoreAttributes } from '../lib/contract/answers.ts';
import { createRequester, getStoreByDomain } from '../lib/api-client/index.ts';
import { COOKIE, headerCookieJar } from '../lib/cookies.ts';
import { SHOPPER_TOKENS } from '../lib/contract/shopper-tokens.ts';
import { reportError } from '../lib/report.ts';
import {
  decideStoreLoading,
  fetchOutcome,
  type FetchOutcome,
  type StoreLoadingDecision,
} from '../lib/store-loading.ts';

export type DomainRoute =
  /** A store page: render `path` (`/shop` → `/{slug}/shop`) with the store already loaded (`outcome`). */
  | { kind: 'store'; slug: string; path: string; outcome: Extract<FetchOutcome, { kind: 'store' }> }
  /** A storeless page or an access link: Astro's middleware decides without a store call. */
  | { kind: 'pass'; path: string }
  /** The store could not be loaded: send the browser to the spec §8 page. */
  | { kind: 'redirect'; decision: Extract<StoreLoadingDecision, { kind: 'redirect' }> };

type ApiFetch = (request: Request) => Response | Promise<Response>;

/** Public stores kept per domain; a store front rarely serves more domains than this. */
const MAX_DOMAINS = 1000;

/**
 * Maps a custom-domain request to the store's prefixed route with spec §4's one decision
 * (`decideStoreLoading`), fetching the store once per request: the outcome is handed to Astro
 * (`locals.storeOutcome`) so the middleware does not ask again. Public stores are kept for a short
 * while; restricted answers depend on the shopper's cookies and are never kept.
 */
export class CustomDomainRouter {
  readonly #fetch: typeof fetch;
  readonly #cache: LRUCache<string, StoreAttributes>;

  constructor(api: ApiFetch, ttlMs = 30_000, clock: { now: () => number } = Date) {
    this.#fetch = async (input, init) => api(new Request(input, init));
    this.#cache = new LRUCache({ max: MAX_DOMAINS, ttl: ttlMs, ttlResolution: 0, perf: clock });
  }

  async route(
    host: string,
    pathname: string,
    search: URLSearchParams,
    cookieHeader: string | undefined,
  ): Promise<DomainRoute> {
    const input = { path: pathname, search: search.toString(), customDomain: host };
    const first = decideStoreLoading(input);
    if (first.kind !== 'fetch') return { kind: 'pass', path: pathname };
    const decision = decideStoreLoading({ ...input, outcome: await this.#outcome(host, cookieHeader) });
    if (decision.kind === 'redirect') return { kind: 'redirect', decision };
    if (decision.kind !== 'render') return { kind: 'pass', path: pathname };
    const { slug } = decision.store;
    return {
      kind: 'store',
      slug,
      path: `/${slug}${pathname === '/' ? '' : pathname}`,
      outcome: { kind: 'store', store: decision.store },
    };
  }

  async #outcome(host: string, cookieHeader: string | undefined): Promise<FetchOutcome> {
    const cached = this.#cache.get(host);
    if (cached) return { kind: 'store', store: cached };
    const cookies = headerCookieJar(cookieHeader);
    const request = createRequester({ baseUrl: 'http://internal/api/', cookies, fetch: this.#fetch });
    const outcome = await fetchOutcome(
      () => getStoreByDomain(request, host),
      (error) => reportError('Store fetch got no answer', error),
    );
    const shopperSpecific = SHOPPER_TOKENS.some((name) => name !== COOKIE.recipientToken && cookies.get(name));
    if (outcome.kind === 'store' && !shopperSpecific && !outcome.store.allowedListsPresent)
      this.#cache.set(host, outcome.store);
    return outcome;
  }
}
