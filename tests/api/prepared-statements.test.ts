import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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

  test('cart calls work on connections that already prepared them', async () => {
    for (let i = 0; i < 3; i++) expect((await api.call('GET', '/store_front/acme/cart')).status).toBe(200);
  });
});
