import { sql, type Kysely } from 'kysely';

// Preview, go live and rollback (docs/decisions/208-preview-and-live-build.md): what a build changed
// against the live one, when its folder was deleted, the live build of the installation (one row: builds
// are whole-site snapshots) and each store's auto-publish setting.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('builds')
    .addColumn('pages_added', 'integer')
    .addColumn('pages_changed', 'integer')
    .addColumn('pages_removed', 'integer')
    // Set when the build's folder was deleted (only the last BUILDS_KEPT are kept): it can no longer go live.
    .addColumn('removed_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('live_build')
    .addColumn('site', 'boolean', (c) =>
      c
        .primaryKey()
        .defaultTo(true)
        .check(sql`site`),
    )
    .addColumn('build_id', 'text', (c) => c.notNull().references('builds.id'))
    .addColumn('previous_build_id', 'text', (c) => c.references('builds.id'))
    // Grows with every switch: an instance never goes back to an older switch it hears late.
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('switched_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Until now the newest `live` build was the live one and superseded builds kept `live` (ADR 202).
  await sql`
    insert into live_build (build_id, version, switched_at)
    select id, 1, coalesce(finished_at, started_at) from builds where status = 'live'
    order by started_at desc, id desc limit 1`.execute(db);
  await sql`update builds set status = 'ready' where status = 'live' and id <> (select build_id from live_build)`.execute(
    db,
  );
  await sql`create unique index builds_one_live on builds (status) where status = 'live'`.execute(db);
  await db.schema
    .alterTable('stores')
    .addColumn('auto_publish', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('auto_publish_quiet_seconds', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(30)
        .check(sql`auto_publish_quiet_seconds between 5 and 3600`),
    )
    // When the store's last catalog change has been quiet long enough; an instance claims it by clearing it.
    .addColumn('auto_publish_due_at', 'timestamptz')
    .execute();
}
