import { sql, type Kysely } from 'kysely';
import { rowsAsJson } from '../db/rows-as-json.ts';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import {
  BUNDLE_IN_STOCK,
  PRODUCT_IN_STOCK,
  type ListingFacets,
  type ListingFilters,
} from '../catalog/listing-filters.ts';
import { BUNDLE_PRICE, PRODUCT_PRICE, type ListingRef, type ListOptions } from '../catalog/queries.ts';

/**
 * A store's products and bundles as the shop's filters and sorts read them, kept in memory
 * (docs/decisions/200-listing-index.md): filtering, counting the facets and sorting 10,000 entries
 * here takes about a millisecond, where PostgreSQL read every row of the store for each page.
 */
type Entry = ListingRef & {
  name: string;
  featured: boolean;
  priceCents: number;
  inStock: boolean;
  /** Its option values, as indexes into the index's `values`. */
  values: number[];
  /**
   * Where it stands when sorted by name (the database's collation, as the shop always sorted); also
   * its place in the index's `entries`, which are in that order.
   */
  nameRank: number;
};

type OptionValue = {
  name: string;
  value: string;
  /** Its average rank among its products' values of that option. */
  rank: number;
};

export type ListingIndex = {
  entries: Entry[];
  values: OptionValue[];
  /** Entries by `kind:id`. */
  byRef: Map<string, Entry>;
  /** A collection's members in its own order. */
  collections: Map<number, Entry[]>;
  /** The whole store's entries in each order asked for so far, sorted once per read of the index. */
  sorted: Map<string, Entry[]>;
  /**
   * The size and facets of the whole store unfiltered (the shop's first page, the most asked for), counted
   * once per read of the index: every page and order of it has the same.
   */
  unfiltered?: { total: number; facets: ListingFacets };
};

/** How migration 0015 keeps an option value in `option_values`: name, U+001F, value. */
const SEPARATOR = '\u001f';
const refKey = (kind: ListingRef['kind'], id: number) => `${kind}:${id}`;

type EntryRow = {
  kind: ListingRef['kind'];
  id: number;
  name: string;
  featured: boolean;
  price_cents: number;
  in_stock: boolean;
  option_values: string[];
};

/** Reads a store's entries and collections (two statements, one pass over the store's rows). */
async function loadIndex(db: Kysely<Database>, storeId: number): Promise<ListingIndex> {
  const [rows, members] = await Promise.all([
    // In parentheses: `rowsAsJson` reads it as a subquery.
    rowsAsJson(
      db,
      sql<EntryRow>`(
        select 'product' as kind, id, name, featured, ${PRODUCT_PRICE} as price_cents,
          ${PRODUCT_IN_STOCK} as in_stock, option_values
        from products where store_id = ${storeId} and archived_at is null
        union all
        select 'bundle', id, name, featured, ${BUNDLE_PRICE}, ${BUNDLE_IN_STOCK}, option_values
        from bundles where store_id = ${storeId}
        order by name, kind, id)`,
    ),
    db
      .selectFrom('collection_items as ci')
      .innerJoin('collections as c', 'c.id', 'ci.collection_id')
      .select(['ci.collection_id', 'ci.product_id', 'ci.bundle_id'])
      .where('c.store_id', '=', storeId)
      .orderBy('ci.collection_id')
      .orderBy('ci.position')
      .orderBy('ci.id')
      .execute(),
  ]);
  const valueIds = new Map<string, number>();
  const ranks: { sum: number; count: number }[] = [];
  const entries = rows.map((row, nameRank): Entry => {
    const seen = new Map<string, number>();
    const values = row.option_values.map((pair) => {
      let id = valueIds.get(pair);
      if (id === undefined) {
        id = valueIds.size;
        valueIds.set(pair, id);
        ranks.push({ sum: 0, count: 0 });
      }
      // The rank of a value among this entry's values of the same option (S 1, M 2, L 3).
      const name = pair.slice(0, pair.indexOf(SEPARATOR));
      const rank = (seen.get(name) ?? 0) + 1;
      seen.set(name, rank);
      ranks[id]!.sum += rank;
      ranks[id]!.count += 1;
      return id;
    });
    return {
      kind: row.kind,
      id: row.id,
      name: row.name,
      featured: row.featured,
      priceCents: row.price_cents,
      inStock: row.in_stock,
      values,
      nameRank,
    };
  });
  const values = [...valueIds.keys()].map((pair, id): OptionValue => {
    const at = pair.indexOf(SEPARATOR);
    return { name: pair.slice(0, at), value: pair.slice(at + 1), rank: ranks[id]!.sum / ranks[id]!.count };
  });
  const byRef = new Map(entries.map((entry) => [refKey(entry.kind, entry.id), entry]));
  const collections = new Map<number, Entry[]>();
  for (const member of members) {
    const entry =
      member.product_id !== null
        ? byRef.get(refKey('product', member.product_id))
        : member.bundle_id !== null
          ? byRef.get(refKey('bundle', member.bundle_id))
          : undefined;
    if (!entry) continue;
    const list = collections.get(member.collection_id) ?? [];
    list.push(entry);
    collections.set(member.collection_id, list);
  }
  return { entries, values, byRef, collections, sorted: new Map([['name', entries]]) };
}

/**
 * Where the catalog stands: migration 0028's sequence, moved by every statement that wrote a row the index
 * reads. `is_called` tells a sequence never moved from one moved once, both with `last_value` 1.
 */
export async function readListingVersion(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ version: string }>`
    select last_value::text || ':' || is_called::text as version from listing_changes`.execute(db);
  return rows[0]!.version;
}

/**
 * How long an index is kept while the version says nothing changed: a write that moved the version before
 * a read began but committed after the read's snapshot is in neither, and shows within this at the latest.
 */
export const LISTING_INDEX_MAX_LIFE_MS = 60_000;

/**
 * A store's index as kept: `version` is where the catalog stood before it was read, `readAt` when that read
 * ended, `checkedAt` when the version was last found unchanged; `checking` while a check or read runs.
 */
type Kept = { index: Promise<ListingIndex>; version: string; readAt: number; checkedAt: number; checking: boolean };

/**
 * Each store's index, reused for `ttlMs` like the store rows of docs/decisions/070; then the database is asked
 * whether anything the index reads was written since (one number, migration 0028), and the store is read
 * again only if so, or once the index is older than LISTING_INDEX_MAX_LIFE_MS. A change to the catalog or to
 * what is in stock reaches the filters and counts within `ttlMs` on every instance, with nothing to
 * invalidate across instances. Past three quarters of `ttlMs` the check runs in the background, so under
 * steady traffic no shopper waits for it; after a quiet spell the next shopper waits for the check (and the
 * read, if the catalog changed). An index is used until its next read ends: a change can take `ttlMs` plus
 * one read to show.
 */
export class ListingIndexes {
  readonly #kept = new Map<number, Kept>();
  readonly #ttlMs: number;
  readonly #clock: Clock;
  readonly #maxStores: number;
  readonly #load: typeof loadIndex;
  readonly #version: typeof readListingVersion;

  constructor(
    ttlMs: number,
    clock: Clock,
    options: { maxStores?: number; load?: typeof loadIndex; version?: typeof readListingVersion } = {},
  ) {
    this.#ttlMs = ttlMs;
    this.#clock = clock;
    this.#maxStores = options.maxStores ?? 100;
    this.#load = options.load ?? loadIndex;
    this.#version = options.version ?? readListingVersion;
  }

  async of(db: Kysely<Database>, storeId: number): Promise<ListingIndex> {
    if (this.#ttlMs <= 0) return this.#load(db, storeId);
    const now = this.#clock.now().getTime();
    const kept = this.#kept.get(storeId);
    if (!kept) return this.#read(db, storeId);
    // An index is answered from while a check or read of it runs, even past its life: a read slower than a
    // quarter of the life (a 100,000-product store on PGlite takes 2 s) made every call wait for one of its own.
    if (kept.checking || now - kept.checkedAt < this.#ttlMs) {
      if (!kept.checking && now - kept.checkedAt >= (this.#ttlMs * 3) / 4)
        this.#check(db, storeId, kept).catch(() => {});
      return kept.index;
    }
    return this.#check(db, storeId, kept);
  }

  /**
   * Forgets one store's index: the console changed what it holds, and the operator who made the change
   * looks at the storefront next. Other instances see it within the TTL, as they see an import's.
   */
  forget(storeId: number): void {
    this.#kept.delete(storeId);
  }

  /** Forgets every index (this process changed the catalog, e.g. before a rebuild renders it). */
  clear(): void {
    this.#kept.clear();
  }

  /** Reads a store's index for the first time; calls meanwhile wait for it. A failed read is not kept. */
  #read(db: Kysely<Database>, storeId: number): Promise<ListingIndex> {
    const now = this.#clock.now().getTime();
    const entry = { version: '', readAt: now, checkedAt: now, checking: true } as Kept;
    this.#keep(storeId, entry);
    entry.index = this.#versioned(db, storeId, entry);
    entry.index.catch(() => this.#kept.get(storeId) === entry && this.#kept.delete(storeId));
    return entry.index;
  }

  /** Asks whether the catalog changed since `kept` was read, and reads it again if so (or if it is too old). */
  async #check(db: Kysely<Database>, storeId: number, kept: Kept): Promise<ListingIndex> {
    kept.checking = true;
    try {
      const version = await this.#version(db);
      const now = this.#clock.now().getTime();
      if (version === kept.version && now - kept.readAt < LISTING_INDEX_MAX_LIFE_MS) {
        kept.checkedAt = now;
        return await kept.index;
      }
      return await this.#versioned(db, storeId, kept, version);
    } finally {
      kept.checking = false;
    }
  }

  /**
   * Reads a store's index and keeps it in place of `replacing`, unless the store was forgotten meanwhile (the
   * console changed it: nothing read before keeps). The version is read first: a write counted after it shows
   * in the next check even when this read saw it already, which costs one read more.
   */
  async #versioned(db: Kysely<Database>, storeId: number, replacing: Kept, known?: string): Promise<ListingIndex> {
    const version = known ?? (await this.#version(db));
    const index = await this.#load(db, storeId);
    // Its life counts from the end of the read, or a read longer than the life would outlive it.
    const now = this.#clock.now().getTime();
    if (this.#kept.get(storeId) === replacing)
      this.#keep(storeId, { index: Promise.resolve(index), version, readAt: now, checkedAt: now, checking: false });
    return index;
  }

  #keep(storeId: number, entry: Kept): void {
    this.#kept.delete(storeId);
    if (this.#kept.size >= this.#maxStores) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(storeId, entry);
  }
}

/** Which entries a list starts from, before the shopper's filters. */
export type ListingScope = {
  /** A collection's members, in the collection's order. */
  collectionId?: number | undefined;
  /** Found by a search: each with its score, best first when unsorted. */
  scores?: ReadonlyMap<string, number> | undefined;
};

const byText = new Intl.Collator('en', { numeric: true });
const NUMBER = /^\d+(\.\d+)?$/;

/**
 * Numbers first, in numeric order (shoe sizes 7, 8, 10); then values in the order their products list
 * them (S, M, L, XL rather than L, M, S, XL: by their average rank among each product's values of that
 * option), then by text. Values of every product of a store share one list, tees' and shoes' alike.
 */
function byValueOrder(a: OptionValue, b: OptionValue): number {
  const aNumber = NUMBER.test(a.value);
  const bNumber = NUMBER.test(b.value);
  if (aNumber !== bNumber) return aNumber ? -1 : 1;
  if (aNumber) return Number(a.value) - Number(b.value);
  return a.rank - b.rank || byText.compare(a.value, b.value);
}

type Compare = (a: Entry, b: Entry) => number;
const byKindAndId: Compare = (a, b) => (a.kind === b.kind ? a.id - b.id : a.kind < b.kind ? -1 : 1);
const byName: Compare = (a, b) => a.nameRank - b.nameRank;
const featuredFirst: Compare = (a, b) => Number(b.featured) - Number(a.featured) || byName(a, b);

/**
 * The order of a list: by name or price either way as asked, featured first (then by name), newest
 * first (the latest added: highest id; docs/decisions/192-listing-facets.md), else the list's own
 * order (a search's best match first, a collection's order, the shop's featured first); ties by kind
 * and id, so pages never overlap.
 */
function listOrder(sort: ListOptions['sort'], scope: ListingScope): Compare | undefined {
  const scores = scope.scores;
  const own: Compare | undefined = scores
    ? (a, b) => scores.get(refKey(b.kind, b.id))! - scores.get(refKey(a.kind, a.id))! || featuredFirst(a, b)
    : scope.collectionId !== undefined
      ? undefined // already in the collection's order; a stable sort keeps it
      : featuredFirst;
  switch (sort) {
    case 'name':
      return byName;
    case '-name':
      return (a, b) => byName(b, a);
    case 'price':
      return (a, b) => a.priceCents - b.priceCents;
    case '-price':
      return (a, b) => b.priceCents - a.priceCents;
    case 'featured':
      return featuredFirst;
    case 'newest':
      return (a, b) => b.id - a.id;
    default:
      return own;
  }
}

/**
 * A page of a list with its size and facets. An option's counts keep the other filters but not its own,
 * so ticking "M" still shows how many "L" there are; the same for availability and the price range.
 * Every value of the list is there, with 0 where the other filters leave none, so the shopper sees what
 * exists.
 */
export function queryIndex(
  index: ListingIndex,
  scope: ListingScope,
  options: Pick<ListOptions, 'page' | 'perPage' | 'sort' | 'featured' | 'q'> & { filters: ListingFilters },
): { refs: ListingRef[]; total: number; facets: ListingFacets } {
  let list: Entry[];
  if (scope.scores) {
    list = [];
    for (const key of scope.scores.keys()) {
      const entry = index.byRef.get(key);
      if (entry) list.push(entry);
    }
  } else if (scope.collectionId !== undefined) list = index.collections.get(scope.collectionId) ?? [];
  else list = index.entries;
  const { filters } = options;
  const q = options.q?.toLowerCase();
  if (options.featured !== undefined || q) {
    list = list.filter(
      (entry) =>
        (options.featured === undefined || entry.featured === options.featured) &&
        (!q || entry.name.toLowerCase().includes(q)),
    );
  }

  const selected = Object.entries(filters.options).filter(([, values]) => values.length > 0);
  const start = (options.page - 1) * options.perPage;
  const order = listOrder(options.sort, scope);
  // The whole store in an order it is kept sorted in is walked to its page below: its matches are only
  // marked, by their place by name, not gathered.
  const walked = list === index.entries && order !== undefined;
  const unfiltered =
    walked &&
    selected.length === 0 &&
    !filters.inStock &&
    filters.priceMin === undefined &&
    filters.priceMax === undefined;
  if (unfiltered && index.unfiltered) {
    // Every entry matches: the page is a slice of the store in its order, with no walk of 100,000 entries.
    const page = sortedStore(index, options.sort, order).slice(start, start + options.perPage);
    return { refs: page.map(({ kind, id }) => ({ kind, id })), ...index.unfiltered };
  }

  // The selected values of each option, and which option (if any) each value belongs to. Values are
  // numbered from 0, so typed arrays indexed by value stand in for maps: a 100,000-entry store walks
  // 300,000 values per request: 7.4 ms median with maps and every match gathered, 2.7 ms so (docs/performance.md).
  const optionOf = new Int32Array(index.values.length).fill(-1);
  const wanted = selected.map(([name, chosen], option) => {
    const ids = new Uint8Array(index.values.length);
    index.values.forEach((v, id) => {
      if (v.name === name) {
        optionOf[id] = option;
        if (chosen.includes(v.value)) ids[id] = 1;
      }
    });
    return ids;
  });

  const matched = walked ? new Uint8Array(index.entries.length) : undefined;
  const matching: Entry[] = [];
  let total = 0;
  /** How many entries of the list, as filtered by the others, have each value; -1: none of the list has it. */
  const counts = new Int32Array(index.values.length).fill(-1);
  let inStock = 0;
  let low = Infinity;
  let high = -Infinity;
  for (const entry of list) {
    const stockOk = !filters.inStock || entry.inStock;
    const priceOk =
      (filters.priceMin === undefined || entry.priceCents >= filters.priceMin) &&
      (filters.priceMax === undefined || entry.priceCents <= filters.priceMax);
    // The selected options this entry has none of the chosen values of: the last one missed is kept,
    // as its own facet's counts still count the entry when it is the only one.
    let misses = 0;
    let missed = -1;
    for (let option = 0; option < wanted.length; option++) {
      const chosen = wanted[option]!;
      let has = false;
      for (const id of entry.values) if (chosen[id]) has = true;
      if (!has) {
        misses++;
        missed = option;
      }
    }
    if (misses === 0) {
      if (stockOk && priceOk) {
        total++;
        if (matched) matched[entry.nameRank] = 1;
        else matching.push(entry);
      }
      if (priceOk && entry.inStock) inStock++;
      if (stockOk) {
        low = Math.min(low, entry.priceCents);
        high = Math.max(high, entry.priceCents);
      }
    }
    for (const id of entry.values) {
      const counted = stockOk && priceOk && (misses === 0 || (misses === 1 && optionOf[id] === missed));
      counts[id] = Math.max(counts[id]!, 0) + (counted ? 1 : 0);
    }
  }

  let page: Entry[];
  if (matched && order) {
    // The store's entries sorted once per read of the index, then walked to the page: no sort of
    // 10,000 entries per request.
    page = [];
    let seen = 0;
    for (const entry of sortedStore(index, options.sort, order)) {
      if (!matched[entry.nameRank]) continue;
      if (seen++ < start) continue;
      page.push(entry);
      if (page.length === options.perPage) break;
    }
  } else {
    const ordered = order ? matching.sort((a, b) => order(a, b) || byKindAndId(a, b)) : matching;
    page = ordered.slice(start, start + options.perPage);
  }
  const refs = page.map(({ kind, id }) => ({ kind, id }));

  const byOption = new Map<string, { value: OptionValue; count: number }[]>();
  for (const [id, count] of counts.entries()) {
    if (count < 0) continue;
    const value = index.values[id]!;
    const values = byOption.get(value.name) ?? [];
    values.push({ value, count });
    byOption.set(value.name, values);
  }
  const facets: ListingFacets = {
    inStock,
    price: low === Infinity ? null : { min: low, max: high },
    options: [...byOption]
      .sort(([a], [b]) => byText.compare(a, b))
      .map(([name, values]) => ({
        name,
        values: values
          .sort((a, b) => byValueOrder(a.value, b.value))
          .map(({ value, count }) => ({ value: value.value, count })),
      })),
  };
  if (unfiltered) index.unfiltered = { total, facets };
  return { refs, total, facets };
}

/** The whole store in `sort`'s order (`order`), sorted once per read of the index. */
function sortedStore(index: ListingIndex, sort: ListOptions['sort'], order: Compare): Entry[] {
  const key = sort ?? 'featured';
  let sorted = index.sorted.get(key);
  if (!sorted) {
    sorted = [...index.entries].sort((a, b) => order(a, b) || byKindAndId(a, b));
    index.sorted.set(key, sorted);
  }
  return sorted;
}
