/** The console's audit log: every change, who made it, and the record before and after. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export type AuditRecord = {
  storeId: number;
  /** Null from the command line; `actor` names who it was either way. */
  operatorId: number | null;
  actor: string;
  action: string;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  at: Date;
};

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** Writes one entry; pass the transaction of the change it records, so neither is kept without the other. */
export async function recordAudit(db: Kysely<Database>, entry: AuditRecord): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      store_id: entry.storeId,
      operator_id: entry.operatorId,
      actor: entry.actor,
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId,
      before: json(entry.before),
      after: json(entry.after),
      at: entry.at,
    })
    .execute();
}
