import { sql, type Kysely } from 'kysely';

// Publishing's build records (docs/decisions/202-publishing-builds.md): one row per snapshot build, by the
// snapshot's own id. `ready` and `rolled_back` are reserved for preview and rollback.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('builds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('building', 'ready', 'live', 'failed', 'rolled_back')`),
    )
    // An operator's email, or 'token' (the HTTP hook) or 'cli' (a process building by itself).
    .addColumn('requested_by', 'text', (c) => c.notNull())
    // The store whose console asked for it; null for the token and the command line.
    .addColumn('store_id', 'integer', (c) => c.references('stores.id').onDelete('set null'))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('pages', 'integer')
    .addColumn('duration_ms', 'integer')
    // The failure's message only, never a stack.
    .addColumn('error', 'text')
    .execute();
  // At most one build runs at a time, whichever instance started it: a second start conflicts here.
  await sql`create unique index builds_one_building on builds (status) where status = 'building'`.execute(db);
  await db.schema.createIndex('builds_started').on('builds').column('started_at').execute();
}
