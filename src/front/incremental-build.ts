/**
 * Which pages of the live build the next one reuses (docs/decisions/211-incremental-builds.md): those
 * whose recorded API answers all hash the same now. Each answer is asked for once per build, through
 * the snapshot's memo, so a store's product answers cost a few list calls; when the database tells which
 * products were written since the live build (docs/decisions/225-publish-from-catalog-changes.md), the
 * answers of the others are taken from its record instead of asked for.
 */
import path from 'node:path';
import { matchCatalogPath, type CatalogIds } from '../lib/page-data/catalog-pages.ts';
import type { BuildRecord } from './build-record.ts';
import { inputsHash } from './page-inputs.ts';
import type { PageReuse } from './snapshot.ts';

/** Products and bundles written since the live build began (src/server/publishing/catalog-changes.ts). */
export type WrittenSince = { products: ReadonlySet<number>; bundles: ReadonlySet<number> };

/** An answer made of one product's or bundle's rows alone: `…/products/{id}`, its variants and collections; a bundle's. */
const ITEM_ANSWER =
  /^\/api\/store_front\/[^/?]+\/(?:(products)\/(\d+)(?:\/product_variants|\/collections)?|bundles\/(\d+)(?:\/bundle_items)?)$/;

/** A list of ids alone (`fields=id`, docs/api.md), as the sitemap reads them. */
const ID_LIST = /^\/api\/store_front\/[^/?]+\/(?:products|bundles)\?(.*)$/;

/**
 * Whether the answer to `key` is one no write since the live build changed: a product's or bundle's that none
 * touched, or a list of ids in an order that only the catalog's shape decides (name, position, featured,
 * newest; a price, which follows the variants, can reorder them).
 */
function untouched(key: string, written: WrittenSince): boolean {
  const item = ITEM_ANSWER.exec(key);
  if (item) return item[1] ? !written.products.has(Number(item[2])) : !written.bundles.has(Number(item[3]));
  const list = ID_LIST.exec(key);
  if (!list) return false;
  const query = new URLSearchParams(list[1]);
  return query.get('fields') === 'id' && !query.get('sort')?.endsWith('price');
}

/**
 * Reuse of the live build's unchanged pages. `answer` gives the hash of a path's answer now (asking the
 * API when this build has not read it yet); with `written`, an untouched product's or bundle's answers are
 * the live build's, unasked.
 */
export function liveBuildReuse(
  from: string,
  record: BuildRecord,
  answer: (key: string) => Promise<string>,
  written?: WrittenSince,
): PageReuse {
  const asked = new Map<string, Promise<string>>();
  const taken = new Map<string, string>();
  const recorded = written ? new Map(record.keys.map((key, index) => [key, record.hashes[index]!])) : null;
  const hashNow = (key: string) => {
    let hash = asked.get(key);
    if (hash) return hash;
    const kept = recorded?.get(key);
    // Only a hash of one answer: one that differed within the live build, or was never read, is asked again.
    if (kept && !kept.startsWith('changed:') && !kept.startsWith('unread') && untouched(key, written!)) {
      taken.set(key, kept);
      hash = Promise.resolve(kept);
    } else hash = answer(key);
    asked.set(key, hash);
    return hash;
  };
  return {
    from,
    folders: () =>
      [
        ...new Set(Object.values(record.pages).flatMap((entry) => entry.files.map((name) => path.dirname(name)))),
      ].filter((folder) => folder !== '.'),
    async unchanged(page) {
      const entry = record.pages[page];
      if (!entry?.inputs) return null;
      const reads = entry.reads.map((index) => record.keys[index]!);
      const now = new Map<string, string>();
      for (const key of reads) now.set(key, await hashNow(key));
      return inputsHash(reads, (key) => now.get(key)) === entry.inputs ? { entry, reads } : null;
    },
    takenHash: (key) => taken.get(key),
  };
}

/** Each store's products and bundles with a page in `record`, in its order. */
export function recordedCatalog(record: BuildRecord): Map<string, CatalogIds> {
  const stores = new Map<string, CatalogIds>(record.stores.map((slug) => [slug, { products: [], bundles: [] }]));
  for (const page of Object.keys(record.pages)) {
    const route = matchCatalogPath(page);
    if (route?.page === 'product') stores.get(route.slug)?.products.push(route.id);
    else if (route?.page === 'bundle') stores.get(route.slug)?.bundles.push(route.id);
  }
  return stores;
}
