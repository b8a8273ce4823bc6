import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileOnce } from '../../src/server/db/compile-once.ts';
import type { Database } from '../../src/server/db/schema.ts';

let db: Kysely<Database>;
beforeAll(async () => {
  db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: new PGlite() }) });
  await sql`create table stores (id int primary key, slug text not null, title text not null)`.execute(db);
  await sql`insert into stores values (1, 'acme', 'Acme'), (2, 'vip', 'VIP'), (3, 'bolt', 'Bolt')`.execute(db);
});
afterAll(async () => db?.destroy());

describe('compileOnce', () => {
  test('builds once and runs each call with its own values', async () => {
    let builds = 0;
    const find = compileOnce((db, a: { slug: string; minId: number }) => {
      builds += 1;
      return db.selectFrom('stores').select(['id', 'title']).where('slug', '=', a.slug).where('id', '>=', a.minId);
    });
    expect(await find(db, { slug: 'acme', minId: 1 })).toEqual([{ id: 1, title: 'Acme' }]);
    expect(await find(db, { slug: 'vip', minId: 1 })).toEqual([{ id: 2, title: 'VIP' }]);
    expect(await find(db, { slug: 'vip', minId: 3 })).toEqual([]);
    expect(builds).toBe(1);
  });

  test('an argument used twice gets its value in both places; constants stay constants', async () => {
    const between = compileOnce((db, a: { id: number }) =>
      db
        .selectFrom('stores')
        .select('slug')
        .where('id', '>=', a.id)
        .where('id', '<=', a.id)
        .where('title', '<>', 'nobody')
        .orderBy('id'),
    );
    expect(await between(db, { id: 3 })).toEqual([{ slug: 'bolt' }]);
    expect(await between(db, { id: 2 })).toEqual([{ slug: 'vip' }]);
  });

  test('an argument that is not a bound parameter is refused when the query is first built', async () => {
    const byColumn = compileOnce((db, a: { column: string }) =>
      db.selectFrom('stores').select(sql.ref<string>(a.column).as('value')),
    );
    await expect(byColumn(db, { column: 'slug' })).rejects.toThrow(
      'compileOnce: arguments that are not bound parameters of the query: column',
    );
  });
});
