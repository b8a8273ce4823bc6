/**
 * The bench's catalog change before the incremental build (docs/decisions/211-incremental-builds.md): one
 * product's price, up by one unit. Run as a script, in the database of DATA_DIR / DATABASE_URL, it prints
 * the product's id.
 */
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { openDatabaseOrExit } from '../api-runtime.ts';

/** Raises the price of the catalog's first variant by one unit; answers its product's id. */
export async function changeOnePrice(db: Kysely<Database>): Promise<number> {
  const variant = await db
    .updateTable('product_variants')
    .set({ price_cents: sql`price_cents + 100` })
    .where(
      'id',
      '=',
      db.selectFrom('product_variants').select((eb) => eb.fn.min('id').as('id')),
    )
    .returning('product_id')
    .executeTakeFirstOrThrow();
  return variant.product_id;
}

if (import.meta.main) {
  const db = openDatabaseOrExit(loadConfig());
  try {
    console.log(`Changed the price of product ${await changeOnePrice(db)}`);
  } finally {
    await db.destroy();
  }
}
