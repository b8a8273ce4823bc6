import type { ApiFetch } from './front-server.ts';

/** Public catalog reads: the store, product and bundle lists and pages, variants. Never carts or orders. */
const CATALOG_READ = /^\/api\/store_front\/[^/?]+(\/(products|bundles)(\/[^/?]+(\/product_variants)?)?)?$/;
/** Any of these makes an answer shopper-specific (restricted stores' access tokens, the cart token). */
const PRIVATE_HEADERS = ['cookie', 'authorization', 'recipient-token', 'allowed-recipient-token', 'allowed-domain-token', 'browser_token'];

interface Stored {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array<ArrayBuffer>;
}

/**
 * Remembers public catalog answers while a snapshot is written. Each page is rendered (its loader
 * calls the API) and then its `_payload.json` is loaded by the same loader: without this every
 * catalog read ran twice, and the store itself once per page. Only anonymous GETs of catalog
 * paths with a 200 are kept, and only until the snapshot ends, so a shopper never sees an answer
 * older than the build being written.
 */
export class SnapshotApiMemo {
  #entries: Map<string, Stored> | null = null;

  /** Starts remembering (a new, empty memo). */
  begin(): void {
    this.#entries = new Map();
  }

  /** Forgets everything and stops remembering. */
  end(): void {
    this.#entries = null;
  }

  /** `apiFetch` with the memo in front of it. */
  wrap(apiFetch: ApiFetch): ApiFetch {
    return async (request) => {
      const entries = this.#entries;
      if (!entries || request.method !== 'GET' || PRIVATE_HEADERS.some((h) => request.headers.has(h))) return apiFetch(request);
      const url = new URL(request.url);
      if (!CATALOG_READ.test(url.pathname)) return apiFetch(request);
      const key = url.pathname + url.search;
      const hit = entries.get(key);
      if (hit) return new Response(hit.body, { status: hit.status, headers: hit.headers });
      const response = await apiFetch(request);
      if (response.status !== 200) return response;
      const stored: Stored = { status: 200, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) };
      entries.set(key, stored);
      return new Response(stored.body, { status: stored.status, headers: stored.headers });
    };
  }
}
