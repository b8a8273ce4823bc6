import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { etagMatches } from '../lib/etag.ts';
import type { ApiFetch } from './front-server.ts';
import { SHOPPER_HEADERS } from './shopper-headers.ts';

/** Only the public catalog: store info, products, variants, bundles. Carts and orders are never public. */
const CACHEABLE_PATH = /^\/api\/store_front\/[^/?]+(\/(products|bundles)(\/[^?]*)?)?(\?|$)/;

type Entry = {
  headers: Record<string, string>;
  body: Buffer;
  etag: string | undefined;
  storedAt: number;
};

export type MicrocacheOptions = {
  /** How long an answer is reused, at most (and never longer than its own `max-age`). 0 turns it off. */
  ttlMs: number;
  /** Entries kept; the least recently used goes first. */
  maxEntries?: number;
  now?: () => number;
};

/** `max-age` of a `Cache-Control` that lets a shared cache keep the answer, else 0. */
function sharedMaxAgeMs(cacheControl: string | null): number {
  if (!cacheControl) return 0;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (!directives.includes('public') || directives.some((d) => d === 'private' || d === 'no-store' || d === 'no-cache'))
    return 0;
  const maxAge = directives.map((d) => /^(?:s-maxage|max-age)=(\d+)$/.exec(d)).find(Boolean);
  return maxAge ? Number(maxAge[1]) * 1000 : 0;
}

/**
 * The API's answers vary on `Origin` at most (CORS with a list of origins), so the origin is part of
 * every key; an answer varying on anything else is not kept.
 */
const keyOf = (url: string, origin: string | null | undefined) => `${url}\n${origin ?? ''}`;
const variesOnOriginOnly = (vary: string | null) =>
  !vary || vary.split(',').every((name) => name.trim().toLowerCase() === 'origin');

/**
 * A shared HTTP cache of the API's public catalog answers, in front of Hono, for about a second: what
 * nginx calls a microcache. Answers the API itself marks `public, max-age=…` (src/server/http/catalog-cache.ts)
 * are served from memory, 304 included, without building a web Request or touching the database; a
 * busy store's info is read once a second however many shoppers ask. Staleness is bounded by the TTL on
 * every instance, so no cross-instance invalidation is needed (docs/decisions/070).
 */
export class ApiMicrocache {
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** Key: the request URL and its `Origin`; each entry lives for its own TTL (ours, or the answer's shorter `max-age`). */
  readonly #entries: LRUCache<string, Entry>;

  constructor(options: MicrocacheOptions) {
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
    // ttlResolution 0: an answer is never served past its TTL, not even by a millisecond.
    this.#entries = new LRUCache({
      max: options.maxEntries ?? 2000,
      ttlAutopurge: false,
      ttlResolution: 0,
      perf: { now: this.#now },
    });
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Forgets every answer (a rebuild or an import in this process changed the catalog). */
  clear(): void {
    this.#entries.clear();
  }

  #cacheableRequest(method: string | undefined, url: string, has: (name: string) => boolean): boolean {
    return this.#ttlMs > 0 && method === 'GET' && CACHEABLE_PATH.test(url) && !SHOPPER_HEADERS.some(has);
  }

  /** Answers `req` from memory when a fresh answer is kept; false when the API must answer. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (!this.#cacheableRequest(req.method, url, (name) => req.headers[name] !== undefined)) return false;
    const key = keyOf(url, req.headers.origin);
    const entry = this.#entries.get(key);
    if (!entry) return false;
    const now = this.#now();
    const age = String(Math.floor((now - entry.storedAt) / 1000));
    const ifNoneMatch = req.headers['if-none-match'];
    if (entry.etag && ifNoneMatch && etagMatches(ifNoneMatch, entry.etag)) {
      const { 'content-type': _type, ...headers } = entry.headers;
      res.writeHead(304, { ...headers, age });
      res.end();
      return true;
    }
    res.writeHead(200, { ...entry.headers, age, 'content-length': entry.body.length });
    res.end(entry.body);
    return true;
  }

  /** `apiFetch` that keeps the answers `serve` may give later. */
  wrap(apiFetch: ApiFetch): ApiFetch {
    return async (request, bindings) => {
      const response = await apiFetch(request, bindings);
      // Writes and errors are most calls that miss: they leave before any parsing.
      if (request.method !== 'GET' || response.status !== 200) return response;
      const url = new URL(request.url);
      const path = url.pathname + url.search;
      if (!this.#cacheableRequest(request.method, path, (name) => request.headers.has(name))) return response;
      const maxAgeMs = sharedMaxAgeMs(response.headers.get('cache-control'));
      if (maxAgeMs === 0 || response.headers.has('set-cookie') || !variesOnOriginOnly(response.headers.get('vary')))
        return response;

      const body = Buffer.from(await response.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const [name, value] of response.headers)
        if (name !== 'content-length' && name !== 'date') headers[name] = value;
      const now = this.#now();
      const key = keyOf(path, request.headers.get('origin'));
      this.#entries.set(
        key,
        { headers, body, etag: response.headers.get('etag') ?? undefined, storedAt: now },
        // lru-cache serves an entry while its age is ≤ ttl; HTTP calls an answer stale once its age reaches max-age.
        { ttl: Math.max(1, Math.min(this.#ttlMs, maxAgeMs) - 1) },
      );
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }
}
