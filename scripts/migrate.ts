/** `npm run db:migrate`: brings the database of DATA_DIR / DATABASE_URL to the latest schema. */
import { loadConfig } from '../src/server/config.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { openDatabaseOrExit } from './api-runtime.ts';

const config = loadConfig();
const db = openDatabaseOrExit(config);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database schema is up to date.');
} catch (error) {
  console.error(error instanceof Error ? `${error.message}: ${String(error.cause)}` : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
