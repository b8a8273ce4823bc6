/**
 * The core of the API client: headers from cookies, recipient-token saving, retries (spec §7),
 * and the calls every page makes. Kept apart from the method table in api-client.ts so the tiny
 * boot script of the store front and shop pages does not carry the whole client.
 */
import type { Cart, ErrorBody, StoreInfo } from './api-types.ts';
import { HEADER } from './api-types.ts';
import { ApiError, NetworkError } from './api-error.ts';
import { COOKIE, cookieToSet, type CookieJar } from './cookies.ts';
import { shouldRetry } from './retry-policy.ts';

export interface ApiClientOptions {
  /** Base URL ending in '/', e.g. '/api/' in the browser or 'http://127.0.0.1:4321/api/' on the server. */
  baseUrl: string;
  /** Cookies to read tokens from (and to save a new recipient-token into). */
  cookies: CookieJar;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Extra headers on every request (the server forwards none of the shopper's by default). */
  headers?: Record<string, string>;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One path segment, encoded. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/** Sends one API call; throws ApiError (answered) or NetworkError (no answer). */
export type Requester = <T>(method: Method, path: string, body?: unknown) => Promise<T>;

/** The core of the client (headers, recipient-token saving, retries) without the method table. */
export function createRequester(options: ApiClientOptions): Requester {
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const jar = options.cookies;

  function headersFor(hasBody: boolean): Headers {
    const headers = new Headers(options.headers);
    headers.set('accept', 'application/json');
    if (hasBody) headers.set('content-type', 'application/json');
    const pairs: Array<[string, string | undefined]> = [
      [HEADER.recipientToken, jar.get(COOKIE.recipientToken)],
      [HEADER.allowedRecipientToken, jar.get(COOKIE.allowedRecipientToken)],
      [HEADER.allowedDomainToken, jar.get(COOKIE.allowedDomainToken)],
      [HEADER.browserToken, jar.get(COOKIE.browserToken)],
    ];
    for (const [name, value] of pairs) if (value) headers.set(name, value);
    return headers;
  }

  return async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const url = base + path.replace(/^\//, '');
    const hasBody = body !== undefined;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url, {
          method,
          headers: headersFor(hasBody),
          body: hasBody ? JSON.stringify(body) : undefined,
          credentials: 'same-origin',
          // Public catalog answers are cacheable (for CDNs); the storefront itself always revalidates,
          // which costs a 304 when nothing changed and never shows a stale price.
          cache: 'no-cache',
        });
      } catch (cause) {
        throw new NetworkError(`${method} ${path} got no answer`, { cause });
      }
      const issued = response.headers.get(HEADER.recipientToken);
      if (issued && !jar.get(COOKIE.recipientToken)) {
        jar.set(cookieToSet(COOKIE.recipientToken, issued, { slug: null, customDomain: null }));
      }
      if (response.ok) {
        if (response.status === 204) return undefined as T;
        const text = await response.text();
        return (text ? JSON.parse(text) : undefined) as T;
      }
      if (shouldRetry(method, response.status, attempt)) {
        await response.body?.cancel();
        continue;
      }
      let errorBody: ErrorBody | null = null;
      try {
        const parsed: unknown = await response.json();
        if (parsed && typeof parsed === 'object' && typeof (parsed as ErrorBody).message === 'string') {
          errorBody = parsed as ErrorBody;
        }
      } catch {
        // A non-JSON error page (proxy, crash): keep the status, no body.
      }
      throw new ApiError(response.status, errorBody);
    }
  };
}

/** `store_front/{slug}`. */
export const sf = (slug: string) => `store_front/${seg(slug)}`;

// The calls every page makes, as standalone functions so the tiny boot script need not carry the whole table.

/** GET store_front/{slug}. */
export const getStore = (request: Requester, slug: string) => request<StoreInfo>('GET', sf(slug));
/** GET store_front?custom_domain={domain}. */
export const getStoreByDomain = (request: Requester, domain: string) =>
  request<StoreInfo>('GET', `store_front?custom_domain=${encodeURIComponent(domain)}`);
/** GET store_front/{slug}/cart. */
export const getCart = (request: Requester, slug: string) => request<Cart>('GET', `${sf(slug)}/cart`);

/** The browser's base URL: `PUBLIC_API_BASE_URL`, default '/api/'. */
export function publicApiBaseUrl(): string {
  return import.meta.env?.PUBLIC_API_BASE_URL || '/api/';
}
