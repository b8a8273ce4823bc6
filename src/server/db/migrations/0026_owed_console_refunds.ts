import { sql, type Kysely } from 'kysely';

// A console refund the payment provider did not confirm is owed: the reconciliation job asks again
// (docs/decisions/198-console-orders.md). `attempted_at` spaces those tries, as for payment releases.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_refunds').addColumn('attempted_at', 'timestamptz').execute();
  await db.schema
    .createIndex('order_refunds_owed')
    .on('order_refunds')
    .column('created_at')
    .where(sql.ref('settled_at'), 'is', null)
    .execute();
}
