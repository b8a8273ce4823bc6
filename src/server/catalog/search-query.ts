import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { escapeLike, type ListingRef } from './queries.ts';

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

/**
 * `word_similarity(term, search_text)`, without computing it where the text holds the term as a whole
 * word: it is exactly 1 there, and computing it (the trigrams of the whole text, per row) was three
 * quarters of a search for a word every product shares (docs/decisions/191-search-engine.md). A term is
 * letters and digits only (`searchTerms`), so it needs no escaping in the pattern.
 */
function textSimilarity(term: string) {
  return sql<number>`(case when search_text ~ ${`\\m${term}\\M`} then 1 else word_similarity(${term}, search_text) end)`;
}

/**
 * A search: products and bundles whose text holds every word of the query, in any order, each word
 * as typed or with one typo (pg_trgm), each with its score: how well the words match the name, then
 * the whole text. The shop's filters, sorts and pages then apply to these as to any list
 * (docs/decisions/200-listing-index.md).
 */
export async function searchMatches(
  db: Kysely<Database>,
  storeId: number,
  terms: readonly string[],
): Promise<Map<string, number>> {
  if (terms.length === 0) return new Map();
  const matches = terms.map((term) => {
    const contains = sql<boolean>`search_text like ${`%${escapeLike(term)}%`}`;
    // `<%` is word_similarity ≥ the threshold set below, in the form the trigram index answers.
    return term.length < FUZZY_MIN_LENGTH ? contains : sql<boolean>`(${contains} or ${term} <% search_text)`;
  });
  const score = sql.join(
    terms.map((term) => sql`2 * word_similarity(${term}, lower(name)) + ${textSimilarity(term)}`),
    sql` + `,
  );
  const where = sql.join(matches, sql` and `);
  const rows = await db.transaction().execute(async (trx) => {
    // For this transaction only. The matches are found through the trigram index first (the materialized
    // CTEs), then narrowed to the store: the planner prices that index above reading every product of the
    // store, as it cannot see that similarity on each row's text is the costly part (4 ms against 70 ms for
    // 10,000 products). And the query is planned for its own words each time: a prepared statement's
    // generic plan (PostgreSQL's choice after five runs) suits no words, and made a search for a rare word
    // among common ones 10 times slower (docs/decisions/191-search-engine.md).
    await sql`select set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_SIMILARITY)}, true),
      set_config('enable_seqscan', 'off', true), set_config('plan_cache_mode', 'force_custom_plan', true)`.execute(trx);
    const { rows } = await sql<ListingRef & { score: number }>`
    with product_matches as materialized (select id from products where ${where}),
    bundle_matches as materialized (select id from bundles where ${where})
    select 'product' as kind, id, (${score})::float8 as score
    from products where store_id = ${storeId} and archived_at is null and id in (select id from product_matches)
    union all
    select 'bundle' as kind, id, (${score})::float8 as score
    from bundles where store_id = ${storeId} and id in (select id from bundle_matches)`.execute(trx);
    return rows;
  });
  return new Map(rows.map((row) => [`${row.kind}:${row.id}`, row.score]));
}
