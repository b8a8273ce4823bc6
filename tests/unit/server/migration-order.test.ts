/**
 * Migration numbers are handed out to work done side by side and land in any order: a database that
 * already has a later migration still gets an earlier one that arrived after it.
 */
import { readdirSync } from 'node:fs';
import { Migrator, type Migration } from 'kysely/migration';
import { expect, test } from 'vitest';
import { openDatabase } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';

const FOLDER = new URL('../../../src/server/db/migrations/', import.meta.url);

test('a migration that arrives after a later-numbered one still runs', async () => {
  const db = openDatabase({});
  try {
    const names = readdirSync(FOLDER)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    // As it happened: 0018 landed (and ran) before 0017. Migrations after those may build on both.
    const late = '0017_order_operations';
    const landedFirst = '0018_catalog_editing';
    const earlier: Record<string, Migration> = {};
    for (const name of names.filter((n) => n !== late && n <= landedFirst))
      earlier[name] = (await import(new URL(`${name}.ts`, FOLDER).href)) as Migration;
    const first = await new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(earlier) },
    }).migrateToLatest();
    expect(first.error).toBeUndefined();

    expect(await migrateToLatest(db)).toEqual([late, ...names.filter((n) => n > landedFirst)]);
  } finally {
    await db.destroy();
  }
}, 60_000);
