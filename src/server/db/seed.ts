import type { Kysely } from 'kysely';
import { importCatalog, type ImportSummary } from '../catalog/import.ts';
import { parseCatalog } from '../catalog/catalog-format.ts';
import { seedDemoOwner } from '../console/demo-owner.ts';
import { demoCatalogs } from './demo-data.ts';
import type { Database } from './schema.ts';

/** Loads the demo stores and their console owner into an empty database; a database with any store is left untouched. */
export async function seedDemoDataIfEmpty(db: Kysely<Database>): Promise<ImportSummary[]> {
  const any = await db.selectFrom('stores').select('id').limit(1).executeTakeFirst();
  if (any) return [];
  const summaries: ImportSummary[] = [];
  for (const catalog of demoCatalogs) summaries.push(await importCatalog(db, parseCatalog(catalog)));
  await seedDemoOwner(db);
  return summaries;
}
