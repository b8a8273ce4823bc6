import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  BUNDLE_IN_STOCK,
  filterCondition,
  listingFacets,
  NO_FILTERS,
  PRODUCT_IN_STOCK,
  type ListingFacets,
} from './listing-filters.ts';
import { BUNDLE_PRICE, PRODUCT_PRICE, type ListingRef, type ListOptions } from './queries.ts';

/** At most this many words of a query are matched; the rest are ignored (a pasted paragraph is not a query). */
const MAX_TERMS = 8;
/** Shorter words match as a substring only: their trigrams are too few to tell a typo from another word. */
const FUZZY_MIN_LENGTH = 4;
/**
 * pg_trgm's word similarity a word needs to count as a match despite a typo. One wrong, missing, extra
 * or swapped letter in a word of four or more letters stays at or above it; measured on the demo
 * catalog (docs/decisions/191-search-engine.md).
 */
const TYPO_SIMILARITY = 0.45;

/** The words of a search query, lower-cased, deduplicated, without punctuation (any script). */
export function searchTerms(query: string): string[] {
  const words =
    query
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_TERMS);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * A search: products and bundles whose text holds every word of the query, in any order, each word
 * as typed or with one typo (pg_trgm). Ranked by how well the words match the name, then the whole
 * text; `sort` orders by name or price instead, as the shop does. One statement, like `listListings`.
 */
export async function searchListings(
  db: Kysely<Database>,
  storeId: number,
  terms: readonly string[],
  options: Pick<ListOptions, 'page' | 'perPage' | 'sort' | 'featured' | 'filters'>,
): Promise<{ refs: ListingRef[]; total: number; facets: ListingFacets }> {
  if (terms.length === 0) return { refs: [], total: 0, facets: { inStock: 0, price: null, options: [] } };
  const filters = options.filters ?? NO_FILTERS;
  const matches = terms.map((term) => {
    const contains = sql<boolean>`search_text like ${`%${escapeLike(term)}%`}`;
    // `<%` is word_similarity ≥ the threshold set below, in the form the trigram index answers.
    return term.length < FUZZY_MIN_LENGTH ? contains : sql<boolean>`(${contains} or ${term} <% search_text)`;
  });
  const score = sql.join(
    terms.map((term) => sql`2 * word_similarity(${term}, lower(name)) + word_similarity(${term}, search_text)`),
    sql` + `,
  );
  const where = sql.join(
    [...(options.featured === undefined ? [] : [sql`featured = ${options.featured}`]), ...matches],
    sql` and `,
  );
  const order = {
    name: sql`name asc`,
    '-name': sql`name desc`,
    price: sql`price_cents asc`,
    '-price': sql`price_cents desc`,
    featured: sql`featured desc, name asc`,
    newest: sql`id desc`,
    relevance: sql`score desc, featured desc, name asc`,
  }[options.sort ?? 'relevance'];
  const { rows, facets } = await db.transaction().execute(async (trx) => {
    await sql`select set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_SIMILARITY)}, true)`.execute(trx);
    // The matches are found through the trigram index first (the materialized CTEs), then narrowed
    // to the store: the planner prices that index above reading every product of the store, as it
    // cannot see that similarity on each row's text is the costly part (4 ms against 70 ms for
    // 10,000 products; docs/decisions/191-search-engine.md). For this transaction only.
    await sql`select set_config('enable_seqscan', 'off', true)`.execute(trx);
    const found = sql`
    with product_matches as materialized (select id from products where ${where}),
    bundle_matches as materialized (select id from bundles where ${where}),
    found as (
      select 'product' as kind, id, name, ${PRODUCT_PRICE} as price_cents, ${PRODUCT_IN_STOCK} as in_stock,
        option_values, featured, ${score} as score
      from products where store_id = ${storeId} and id in (select id from product_matches)
      union all
      select 'bundle' as kind, id, name, ${BUNDLE_PRICE} as price_cents, ${BUNDLE_IN_STOCK} as in_stock,
        option_values, featured, ${score} as score
      from bundles where store_id = ${storeId} and id in (select id from bundle_matches)
    )`;
    const { rows } = await sql<ListingRef & { total: number }>`${found}
    select kind, id, (count(*) over ())::int as total from found where ${filterCondition('found', filters)}
    order by ${order}, kind, id
    limit ${options.perPage} offset ${(options.page - 1) * options.perPage}`.execute(trx);
    const facets = await listingFacets(trx, sql`${found} select * from found`, filters);
    return { rows, facets };
  });
  // A page past the end has no rows to carry the count: ask for it alone.
  const total =
    rows[0]?.total ??
    (options.page > 1 ? (await searchListings(db, storeId, terms, { ...options, page: 1 })).total : 0);
  return { refs: rows.map(({ kind, id }) => ({ kind, id })), total, facets };
}
