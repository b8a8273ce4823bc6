/**
 * `npm run import -- catalog.json [more.json…]`: loads store catalogs (format: docs/catalog-format.md)
 * into the database of DATA_DIR / DATABASE_URL, migrating it first. Each file is streamed, its
 * products never all in memory (docs/decisions/214-scale-and-contention.md). `npm run import` runs it with
 * PGlite kept on V8's baseline compiler, whose optimizing compile of one function took 600 MB
 * (docs/decisions/217-import-on-liftoff.md).
 */
import { readCatalogFile } from '../src/server/catalog/catalog-file.ts';
import { importCatalogProducts } from '../src/server/catalog/import.ts';
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
    const catalog = await readCatalogFile(file);
    const summary = await importCatalogProducts(db, catalog.head, catalog.products());
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
