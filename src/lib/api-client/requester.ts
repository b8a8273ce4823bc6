/**
 * The requester every API call goes through: the access headers of spec §6–§7 from cookies
 * (document.cookie in the browser, a jar built from the request's Cookie header on the server),
 * a `recipient-token` answer header saved when the shopper has none, and retries per
 * retry-policy.ts. Throws ApiError (answered) or NetworkError (no answer).
 */
import type { ErrorBody } from '../contract/answers.ts';
import { SHOPPER_TOKEN, SHOPPER_TOKENS } from '../contract/shopper-tokens.ts';
import { ApiError, NetworkError } from '../api-error.ts';
import { browserCookieJar, COOKIE, cookieToRemove, cookieToSet, type CookieJar } from '../cookies.ts';
import { shouldRetry } from '../retry-policy.ts';

export type ApiClientOptions = {
  /** Base URL ending in '/', e.g. '/api/' in the browser or 'http://127.0.0.1:4321/api/' on the server. */
  baseUrl: string;
  /** Cookies to read tokens from (and to save a new recipient-token into). */
  cookies: CookieJar;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Extra headers on every request (the server forwards none of the shopper's by default). */
  headers?: Record<string, string>;
};

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Sends one API call; throws ApiError (answered) or NetworkError (no answer). */
export type Requester = <T>(method: Method, path: string, body?: unknown) => Promise<T>;

/** The core of the client (headers, recipient-token saving, retries) without the method table. */
export function createRequester(options: ApiClientOptions): Requester {
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const jar = options.cookies;

  /** Token cookies the API refused (401): never sent again, whatever a server-side jar still holds. */
  const refused = new Set<string>();
  const cartToken = () => {
    const token = jar.get(COOKIE.recipientToken);
    return token && !refused.has(token) ? token : undefined;
  };

  function headersFor(hasBody: boolean): Headers {
    const headers = new Headers(options.headers);
    headers.set('accept', 'application/json');
    if (hasBody) headers.set('content-type', 'application/json');
    // Each token cookie travels as the header of its name (shopper-tokens.ts); a refused cart token stays home.
    for (const name of SHOPPER_TOKENS) {
      const value = name === SHOPPER_TOKEN.recipientToken ? cartToken() : jar.get(name);
      if (value) headers.set(name, value);
    }
    return headers;
  }

  return async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const url = base + path.replace(/^\//, '');
    const hasBody = body !== undefined;
    let droppedToken = false;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      const headers = headersFor(hasBody);
      try {
        response = await doFetch(url, {
          method,
          headers,
          // Credentials stay fetch's default ('same-origin'): the shopper's tokens travel as headers.
          body: hasBody ? JSON.stringify(body) : undefined,
          // Public catalog answers are cacheable (for CDNs); the storefront itself always revalidates,
          // which costs a 304 when nothing changed and never shows a stale price.
          cache: 'no-cache',
        });
      } catch (cause) {
        throw new NetworkError(`${method} ${path} got no answer`, { cause });
      }
      const sentToken = headers.get(SHOPPER_TOKEN.recipientToken);
      if (response.status === 401 && sentToken && !droppedToken) {
        // A cart token the API did not issue (forged, or from before tokens were signed) is refused
        // before anything is written: forget it and ask again without one, which gets a new cart
        // (docs/decisions/111). Once per call, so a refusal can never loop.
        droppedToken = true;
        refused.add(sentToken);
        if (jar.get(COOKIE.recipientToken) === sentToken)
          jar.set(cookieToRemove(COOKIE.recipientToken, { slug: null, customDomain: null }));
        await response.body?.cancel();
        attempt--;
        continue;
      }
      const issued = response.headers.get(SHOPPER_TOKEN.recipientToken);
      if (issued && !cartToken()) {
        jar.set(cookieToSet(COOKIE.recipientToken, issued, { slug: null, customDomain: null }));
      }
      if (response.ok) {
        // An empty body (204 included) answers undefined.
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

/** The browser's base URL: `PUBLIC_API_BASE_URL`, default '/api/'. */
export function publicApiBaseUrl(): string {
  // import.meta.env exists under Vite/Astro only; the server's scripts import this module too.
  return (import.meta as { env?: Record<string, string | undefined> }).env?.PUBLIC_API_BASE_URL || '/api/';
}

/** The server's base URL: `API_INTERNAL_URL`, default `http://127.0.0.1:${PORT}/api/`. */
export function internalApiBaseUrl(env: Record<string, string | undefined>): string {
  return env.API_INTERNAL_URL || `http://127.0.0.1:${env.PORT || '4321'}/api/`;
}

let shared: Requester | undefined;

/** The browser's requester, shared by every script and island of the page: cookies from document.cookie. */
export function browserRequester(): Requester {
  shared ??= createRequester({ baseUrl: publicApiBaseUrl(), cookies: browserCookieJar() });
  return shared;
}

/** One path segment, encoded. */
export const seg = (value: string) => encodeURIComponent(value);

/** `store_front/{slug}`. */
export const sf = (slug: string) => `store_front/${seg(slug)}`;
