import type { ApiBindings, ApiFetch } from './front-server.ts';
import { detached } from './detached.ts';
import { KeptAnswer } from './kept-answer.ts';
import { answerHash, PageInputs } from './page-inputs.ts';
import { snapshotRenderPath } from './rendering-request.ts';
import { SHOPPER_HEADERS } from './shopper-headers.ts';

/**
 * Public catalog reads: the store, product and bundle lists and pages, variants, collections and their
 * lists (every product page of a collection reads the same page of it for its related items). Never carts or orders.
 */
const CATALOG_READ =
  /^\/api\/store_front\/[^/?]+(\/(products|bundles)(\/[^/?]+(\/product_variants|\/collections|\/bundle_items)?)?|\/collections(\/[^/?]+(\/listings)?)?)?$/;
/** A product or bundle list of a store (query aside): its items are the single answers. */
const LIST = /^\/api\/store_front\/[^/?]+\/(products|bundles)$/;
/**
 * The headers a kept answer is handed back with: its type alone. A render reads nothing else of a catalog
 * answer (the requester looks only for an issued cart token, which an anonymous catalog read never gets),
 * and building the API's 17 headers again on every read, twice (Hono's light `Response`, then undici's for
 * the body), cost the 10,000-page build about 1 s of CPU (docs/performance.md).
 */
const keptHeaders = (headers: Headers): [string, string][] => [['content-type', headers.get('content-type') ?? '']];

type Stored = {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
  /** `answerHash` of it: what the pages reading it record as their input (page-inputs.ts). */
  hash: string;
};

/** Statuses whose answers have no body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A store-wide call answering one sub-resource of many list items (`…/products/{id}/{sub}`,
 * `…/bundles/{id}/{sub}`) at once, asked for with `{param}=1,2,3`.
 */
type PerItemBulk = {
  sub: string;
  path: string;
  param: string;
  /** Each item's entries in the bulk answer; throws on a shape it does not know. */
  group: (body: { data: unknown[] }) => Map<string, unknown[]>;
  /** Whether an item the bulk answer leaves out has none (rather than being unknown to it). */
  everyId: boolean;
};

/** Groups a bulk answer's entries by the item each names in `attributes[field]`, in their order. */
const byAttribute =
  (field: string) =>
  ({ data }: { data: unknown[] }): Map<string, unknown[]> =>
    Map.groupBy(data, (entry) => (entry as { attributes: Record<string, string> }).attributes[field]!);

const BULK = {
  // `…/product_variants?product_ids=…`: the variants one after the other, each naming its product.
  variants: {
    sub: 'product_variants',
    path: 'product_variants',
    param: 'product_ids',
    everyId: true,
    group: byAttribute('product_id'),
  },
  // `…/product_collections?product_ids=…`: each product on sale with its collections (ADR 211).
  collections: {
    sub: 'collections',
    path: 'product_collections',
    param: 'product_ids',
    everyId: false,
    group: ({ data }) =>
      new Map(
        (data as { product_id: string; collections: unknown[] }[]).map((entry) => [
          entry.product_id,
          entry.collections,
        ]),
      ),
  },
  // `…/bundle_items?bundle_ids=…`: the items one bundle after the other, each naming its bundle.
  bundleItems: {
    sub: 'bundle_items',
    path: 'bundle_items',
    param: 'bundle_ids',
    everyId: true,
    group: byAttribute('bundle_id'),
  },
} satisfies Record<string, PerItemBulk>;

/** Answers derived from one list answer, by path: seeded only if the first agrees with the API. */
type Seeds = [path: string, body: Uint8Array<ArrayBuffer>][];

const encodeJson = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/**
 * Remembers public catalog answers while a snapshot is written. Each page is rendered (its loader
 * calls the API) and then its `_payload.json` is loaded by the same loader: without this every
 * catalog read ran twice, and the store itself once per page. Only anonymous GETs of catalog
 * paths with a 200 are kept, and only until the snapshot ends, so a shopper never sees an answer
 * older than the build being written.
 */
export class SnapshotApiMemo {
  #entries: Map<string, Stored> | null = null;
  #inputs = new PageInputs();
  /** Kinds of seeded answers (`/api/store_front/acme/products/{id}`) checked against a real answer: its headers. */
  #verified = new Map<string, [string, string][]>();
  #unseedable = new Set<string>();
  #seedLists = true;

  /**
   * Starts remembering (a new, empty memo); answers where each page's reads are recorded. `seedLists: false`
   * when the build asks for few of a list's items: those of products written since the live build
   * (docs/decisions/225-publish-from-catalog-changes.md), while the sitemap still reads every list.
   */
  begin({ seedLists = true }: { seedLists?: boolean } = {}): PageInputs {
    this.#seedLists = seedLists;
    this.#entries = new Map();
    this.#inputs = new PageInputs();
    this.#verified.clear();
    this.#unseedable.clear();
    return this.#inputs;
  }

  /** The hash of the answer kept for `key` (`/api/store_front/acme/products/3`), if one is kept. */
  keptHash(key: string): string | undefined {
    return this.#entries?.get(key)?.hash;
  }

  /** Forgets everything and stops remembering. */
  end(): void {
    this.#entries = null;
  }

  /**
   * The kept answer to an anonymous GET of `url`, as a `Response` read straight from its bytes, noted as a
   * read of the page it is made for; undefined when none is kept (then the call goes through `wrap`). Asked
   * before a `Request` is made: most of a build's reads are answered here (docs/decisions/222-pages-compressed-once.md).
   */
  kept(url: URL, headers: Headers, bindings?: ApiBindings): Response | undefined {
    const entries = this.#entries;
    if (!entries || !CATALOG_READ.test(url.pathname) || SHOPPER_HEADERS.some((h) => headers.has(h))) return undefined;
    const key = url.pathname + url.search;
    const hit = entries.get(key);
    if (!hit) return undefined;
    this.#inputs.read(this.#pageOf(bindings), detached(key), hit.hash, headers);
    return new KeptAnswer(hit.body, hit);
  }

  /** The page a read is made for, whose input it is (docs/decisions/211-incremental-builds.md). */
  #pageOf(bindings: ApiBindings | undefined): string | null {
    return snapshotRenderPath(bindings) ?? this.#inputs.currentPage();
  }

  /** `apiFetch` with the memo in front of it. */
  wrap(apiFetch: ApiFetch): ApiFetch {
    return async (request, bindings) => {
      const entries = this.#entries;
      if (!entries || request.method !== 'GET' || SHOPPER_HEADERS.some((h) => request.headers.has(h)))
        return apiFetch(request, bindings);
      const url = new URL(request.url);
      const kept = this.kept(url, request.headers, bindings);
      if (kept) return kept;
      // Kept for the whole build (the page's reads): not a slice of the URL.
      const key = detached(url.pathname + url.search);
      const inputs = this.#inputs;
      const page = this.#pageOf(bindings);
      const response = await apiFetch(request, bindings);
      const body = NULL_BODY.has(response.status) ? null : new Uint8Array(await response.arrayBuffer());
      const hash = answerHash(response.status, body ?? new Uint8Array());
      inputs.read(page, key, hash, request.headers);
      if (response.status !== 200 || !body || !CATALOG_READ.test(url.pathname))
        return new Response(body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      const stored: Stored = { status: 200, headers: keptHeaders(response.headers), body, hash };
      entries.set(key, stored);
      const list = LIST.exec(url.pathname);
      if (list && this.#seedLists && !url.searchParams.has('fields'))
        await this.#seedFromList(entries, url, list[1] as 'products' | 'bundles', stored, apiFetch, request);
      return new KeptAnswer(stored.body, stored);
    };
  }

  /**
   * A list page (500 products) holds each item exactly as `GET …/{kind}/{id}` answers it, so the
   * single answers are remembered from it: one query instead of one API call per page. A product
   * page also reads `…/products/{id}/product_variants` and `…/products/{id}/collections`, a bundle page
   * `…/bundles/{id}/bundle_items`: those come from one bulk call each (`…/product_variants?product_ids=…`,
   * `…/product_collections?product_ids=…`, `…/bundle_items?bundle_ids=…`, docs/api.md) for the whole list page.
   */
  async #seedFromList(
    entries: Map<string, Stored>,
    listUrl: URL,
    kind: 'products' | 'bundles',
    list: Stored,
    apiFetch: ApiFetch,
    like: Request,
  ): Promise<void> {
    const listPath = listUrl.pathname;
    let answer: { data: { id: string; type: string }[]; meta?: unknown };
    try {
      answer = JSON.parse(new TextDecoder().decode(list.body)) as typeof answer;
    } catch {
      return;
    }
    const items = answer.data;
    if (!Array.isArray(items) || items.length === 0) return;
    // The same page with `fields=id`, which the sitemap reads (docs/decisions/225-publish-from-catalog-changes.md).
    const idsOnly = new URL(listUrl);
    idsOnly.searchParams.append('fields', 'id');
    await this.#seed(
      entries,
      `${listPath}?fields=id`,
      [
        [
          idsOnly.pathname + idsOnly.search,
          encodeJson({
            data: items.map(({ id, type }) => ({ id, type })),
            ...(answer.meta ? { meta: answer.meta } : {}),
          }),
        ],
      ],
      apiFetch,
      like,
    );
    const ids = items.map((item) => item.id);
    const pathOf = (id: string) => `${listPath}/${encodeURIComponent(id)}`;
    await this.#seed(
      entries,
      `${listPath}/{id}`,
      items.map((item) => [pathOf(item.id), encodeJson({ data: item })]),
      apiFetch,
      like,
    );
    if (kind === 'bundles') {
      await this.#seedPerItem(entries, listPath, ids, BULK.bundleItems, apiFetch, like);
      return;
    }
    await this.#seedPerItem(entries, listPath, ids, BULK.variants, apiFetch, like);
    await this.#seedPerItem(entries, listPath, ids, BULK.collections, apiFetch, like);
  }

  /**
   * Remembers `…/{products|bundles}/{id}/{sub}` of a list page's items from one bulk call of the store
   * (docs/api.md); a kind whose bulk call fails is never seeded.
   */
  async #seedPerItem(
    entries: Map<string, Stored>,
    listPath: string,
    ids: string[],
    bulk: PerItemBulk,
    apiFetch: ApiFetch,
    like: Request,
  ): Promise<void> {
    const pathOf = (id: string) => `${listPath}/${encodeURIComponent(id)}/${bulk.sub}`;
    const kind = `${listPath}/{id}/${bulk.sub}`;
    if (this.#unseedable.has(kind) || ids.every((id) => entries.has(pathOf(id)))) return;
    const storePath = listPath.slice(0, listPath.lastIndexOf('/'));
    const url = new URL(`${storePath}/${bulk.path}?${bulk.param}=${ids.map(encodeURIComponent).join(',')}`, like.url);
    const response = await apiFetch(new Request(url, { headers: like.headers }));
    let byItem: Map<string, unknown[]> | null = null;
    if (response.status === 200) {
      try {
        byItem = bulk.group((await response.json()) as { data: unknown[] });
      } catch {
        byItem = null;
      }
    }
    if (!byItem) {
      this.#unseedable.add(kind);
      return;
    }
    const seeds: Seeds = ids
      .filter((id) => bulk.everyId || byItem.has(id))
      .map((id) => [pathOf(id), encodeJson({ data: byItem.get(id) ?? [] })]);
    await this.#seed(entries, kind, seeds, apiFetch, like);
  }

  /**
   * Remembers derived answers of one kind. The first time, the first of them is checked against a
   * real answer, byte for byte; if the shapes ever differ, that kind is never seeded and every page
   * asks the API. Seeded answers get the real answer's type, as every kept answer does (`keptHeaders`).
   */
  async #seed(
    entries: Map<string, Stored>,
    kind: string,
    seeds: Seeds,
    apiFetch: ApiFetch,
    like: Request,
  ): Promise<void> {
    if (this.#unseedable.has(kind) || seeds.length === 0) return;
    if (!this.#verified.has(kind)) {
      const [path, body] = seeds[0]!;
      const real = await apiFetch(new Request(new URL(path, like.url), { headers: like.headers }));
      const realBody = new Uint8Array(await real.arrayBuffer());
      if (real.status !== 200 || Buffer.compare(realBody, body) !== 0) {
        this.#unseedable.add(kind);
        return;
      }
      this.#verified.set(kind, keptHeaders(real.headers));
    }
    const headers = this.#verified.get(kind)!;
    for (const [path, body] of seeds)
      if (!entries.has(path)) entries.set(path, { status: 200, headers, body, hash: answerHash(200, body) });
  }
}
