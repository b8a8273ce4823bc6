import type pg from 'pg';

/**
 * Distinct statement texts that get a server-side prepared statement. Kysely builds the same text for
 * the same query shape, so a few hundred cover every query of the API; `in (…)` lists of varying length
 * could make more, and those beyond the bound run unnamed as before rather than grow every connection.
 */
const MAX_NAMED_STATEMENTS = 1000;

const names = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED_STATEMENTS) {
    name = `k${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

type QueryFunction = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Makes a pool client run Kysely's queries as named prepared statements: PostgreSQL parses and plans a
 * statement once per connection instead of on every call, which was most of its CPU time per cart write
 * (docs/performance.md). Only the `(text, values)` promise form Kysely uses is changed. A connection
 * that is replaced (a restart, an error) starts with no prepared statements and prepares them again.
 */
export function prepareStatementsOn(client: pg.PoolClient): void {
  const query = client.query.bind(client) as QueryFunction;
  const preparing: QueryFunction = (config, values, callback) => {
    if (typeof config === 'string' && Array.isArray(values) && callback === undefined) {
      const name = statementName(config);
      if (name) return query({ name, text: config, values });
    }
    return query(config, values, callback);
  };
  client.query = preparing as typeof client.query;
}
