import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Slugs of the stores that may be prerendered (never a restricted one), for the build script. */
export async function listPublicStoreSlugs(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('stores').select('slug').where('restricted', '=', false).orderBy('slug').execute();
  return rows.map((r) => r.slug);
}
