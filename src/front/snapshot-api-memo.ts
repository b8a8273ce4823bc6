import type { ApiFetch } from './front-server.ts';

/** Public catalog reads: the store, product and bundle lists and pages, variants. Never carts or orders. */
const CATALOG_READ = /^\/api\/store_front\/[^/?]+(\/(products|bundles)(\/[^/?]+(\/product_variants)?)?)?$/;
/** A product or bundle list of a store (query aside): its items are the single answers. */
const LIST = /^\/api\/store_front\/[^/?]+\/(products|bundles)$/;
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
  /** List paths whose items were checked against a real single answer (its headers kept). */
  #verified = new Map<string, Array<[string, string]>>();
  #unseedable = new Set<string>();

  /** Starts remembering (a new, empty memo). */
  begin(): void {
    this.#entries = new Map();
    this.#verified.clear();
    this.#unseedable.clear();
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
      const list = LIST.exec(url.pathname);
      if (list) await this.#seedItems(entries, list[0]!, stored, apiFetch, request);
      return new Response(stored.body, { status: stored.status, headers: stored.headers });
    };
  }

  /**
   * A list page (500 products) holds each item exactly as `GET …/{kind}/{id}` answers it, so the
   * single answers are remembered from it: one query instead of one API call per page. The first
   * item is checked against a real single answer, byte for byte; if the shapes ever differ,
   * nothing is seeded and every page asks the API.
   */
  async #seedItems(entries: Map<string, Stored>, listPath: string, list: Stored, apiFetch: ApiFetch, like: Request): Promise<void> {
    if (this.#unseedable.has(listPath)) return;
    let items: Array<{ id: string }>;
    try {
      items = (JSON.parse(new TextDecoder().decode(list.body)) as { data: Array<{ id: string }> }).data;
    } catch {
      return;
    }
    if (!Array.isArray(items) || items.length === 0) return;
    const keyOf = (id: string) => `${listPath}/${encodeURIComponent(id)}`;
    const encode = (item: unknown) => new TextEncoder().encode(JSON.stringify({ data: item }));
    if (!this.#verified.has(listPath)) {
      const first = items[0]!;
      const real = await apiFetch(new Request(new URL(keyOf(String(first.id)), like.url), { headers: like.headers }));
      const body = new Uint8Array(await real.arrayBuffer());
      if (real.status !== 200 || Buffer.compare(Buffer.from(body), Buffer.from(encode(first))) !== 0) {
        this.#unseedable.add(listPath);
        return;
      }
      this.#verified.set(listPath, [...real.headers].filter(([name]) => name !== 'content-length' && name !== 'date'));
    }
    const headers = this.#verified.get(listPath)!;
    for (const item of items) {
      const key = keyOf(String(item.id));
      if (!entries.has(key)) entries.set(key, { status: 200, headers, body: encode(item) });
    }
  }
}
