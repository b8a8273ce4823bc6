/** Operators and their roles per store (docs/decisions/197-operator-auth.md). */
import type { Kysely } from 'kysely';
import type { OperatorRole } from '../../lib/contract/answers.ts';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

/** The operator with this (lower-cased) email, created when there is none. */
export async function ensureOperator(db: Db, email: string): Promise<number> {
  const normalized = email.trim().toLowerCase();
  await db
    .insertInto('operators')
    .values({ email: normalized })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const row = await db.selectFrom('operators').select('id').where('email', '=', normalized).executeTakeFirstOrThrow();
  return row.id;
}

/** The stores an operator may open, with their role in each, by title. */
export function operatorStores(db: Db, operatorId: number) {
  return db
    .selectFrom('store_operators as so')
    .innerJoin('stores as s', 's.id', 'so.store_id')
    .select(['s.slug', 's.title', 'so.role', 's.restricted'])
    .where('so.operator_id', '=', operatorId)
    .orderBy('s.title')
    .orderBy('s.slug')
    .execute();
}

/** The operator's role in a store, or null when they have none there. */
export async function roleIn(db: Db, operatorId: number, storeId: number): Promise<OperatorRole | null> {
  const row = await db
    .selectFrom('store_operators')
    .select('role')
    .where('operator_id', '=', operatorId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  return row?.role ?? null;
}

/** Gives the operator with this email (created when new) a role in a store; answers their id and the store's. */
export async function grantRole(
  db: Db,
  slug: string,
  email: string,
  role: OperatorRole,
): Promise<{ operatorId: number; storeId: number } | null> {
  const store = await db.selectFrom('stores').select('id').where('slug', '=', slug).executeTakeFirst();
  if (!store) return null;
  const operatorId = await ensureOperator(db, email);
  await db
    .insertInto('store_operators')
    .values({ store_id: store.id, operator_id: operatorId, role })
    .onConflict((oc) => oc.columns(['store_id', 'operator_id']).doUpdateSet({ role }))
    .execute();
  return { operatorId, storeId: store.id };
}
