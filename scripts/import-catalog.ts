/**
 * `npm run import -- catalog.json [more.json…]`: loads store catalogs (format: docs/catalog-format.md)
 * into the database of DATA_DIR / DATABASE_URL, migrating it first.
 */
import { readFile } from 'node:fs/promises';
import { parseCatalog } from '../src/server/catalog/catalog-format.ts';
import { importCatalog } from '../src/server/catalog/import.ts';
import { loadConfig } from '../src/server/config.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { openDatabaseOrExit } from './api-runtime.ts';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('Usage: npm run import -- catalog.json [more.json ...]   (format: docs/catalog-format.md)');
  process.exit(2);
}

const config = loadConfig();
const db = openDatabaseOrExit(config);
try {
  await migrateToLatest(db);
  for (const file of files) {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new Error(`${file}: cannot read JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const summary = await importCatalog(db, parseCatalog(json));
    console.log(
      `${file}: store "${summary.store}" – ${summary.products} products, ${summary.bundles} bundles, ${summary.collections} collections, ${summary.giftCards} gift cards`,
    );
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
