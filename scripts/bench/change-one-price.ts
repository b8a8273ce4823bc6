/**
 * The bench's catalog change before the incremental build (docs/decisions/211-incremental-builds.md): one
 * product's price, up by one unit, in the database of DATA_DIR / DATABASE_URL. Prints the product's id.
 */
import { sql } from 'kysely';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabaseOrExit } from '../api-runtime.ts';

const db = openDatabaseOrExit(loadConfig());
try {
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
  console.log(`Changed the price of product ${variant.product_id}`);
} finally {
  await db.destroy();
}
