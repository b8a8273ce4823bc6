import type { Expression, Kysely, Simplify } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from './schema.ts';

/**
 * The rows of a large read as one JSON array, in the read's order (Kysely's `jsonArrayFrom`: `json_agg` over
 * the ordered subquery, which keeps its order, as PostgREST relies on). PGlite decodes each field of each row
 * in JavaScript, about 1.3 µs a field, where one JSON value is parsed natively: a list page's 700 variants
 * came back in 4 ms instead of 12 (docs/decisions/223-large-reads-as-json.md). Only for columns whose JSON is
 * their JavaScript value (numbers, int8 below 2^53 included, text, booleans, jsonb and arrays), not timestamps.
 */
export async function rowsAsJson<O>(db: Kysely<Database>, query: Expression<O>): Promise<Simplify<O>[]> {
  const { rows } = await db.selectNoFrom(jsonArrayFrom(query).as('rows')).executeTakeFirstOrThrow();
  return rows as Simplify<O>[];
}
