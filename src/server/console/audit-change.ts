/** The audit entry of a change made by the signed-in operator in the store of the request. */
import type { Kysely } from 'kysely';
import type { Database, StoreRow } from '../db/schema.ts';
import { recordAudit } from './audit.ts';
import type { ConsoleSessionRow } from './sessions.ts';

export type ChangeRecord = {
  action: string;
  entity: string;
  entityId: string;
  before: unknown;
  after: unknown;
};

/** Writes the entry in `trx`, the transaction of the change itself. */
export function auditChange(
  trx: Kysely<Database>,
  by: { session: ConsoleSessionRow; consoleStore: StoreRow },
  at: Date,
  change: ChangeRecord,
): Promise<void> {
  return recordAudit(trx, {
    storeId: by.consoleStore.id,
    operatorId: by.session.operatorId,
    actor: by.session.email,
    at,
    ...change,
  });
}
