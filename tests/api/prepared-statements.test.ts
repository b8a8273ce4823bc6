import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { searchMatches, searchTerms } from '../../src/server/catalog/search-query.ts';
import { acmeId } from './support/shopper.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Prepared statements are a property of PostgreSQL connections; PGlite runs in process without them.
describe.runIf(process.env.DATABASE_URL)('PostgreSQL connections prepare the statements they run', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(async () => api?.close());

  test('a query run through Kysely is a named prepared statement of its connection', async () => {
    const statements = await api.db.connection().execute(async (connection) => {
      await sql`select count(*) as n from stores where slug = ${'acme'}`.execute(connection);
      return (
        await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection)
      ).rows.map((r) => r.statement);
    });
    expect(statements).toContain('select count(*) as n from stores where slug = $1');
  });

  test('a search is planned for its own words every time, never by a generic plan of its statement', async () => {
    // After five runs PostgreSQL may plan a prepared statement once for any words, and a plan that suits
    // a word every product shares read them all for a word only one holds (10 ms became 110 ms).
    const storeId = await acmeId(api);
    const plans = await api.db.connection().execute(async (connection) => {
      for (let i = 0; i < 8; i++) await searchMatches(connection, storeId, searchTerms('coffee beans colombia'));
      return (
        await sql<{ generic: number; custom: number }>`
          select sum(generic_plans)::int as generic, sum(custom_plans)::int as custom
          from pg_prepared_statements
          where statement like '%product_matches%' and statement not like '%pg_prepared_statements%'`.execute(
          connection,
        )
      ).rows[0]!;
    });
    expect(plans).toEqual({ generic: 0, custom: 8 });
  });

  test('cart calls work on connections that already prepared them', async () => {
    for (let i = 0; i < 3; i++) expect((await api.call('GET', '/store_front/acme/cart')).status).toBe(200);
  });
});
