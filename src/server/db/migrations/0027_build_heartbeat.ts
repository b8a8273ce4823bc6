import type { Kysely } from 'kysely';

// The process rendering a build refreshes `heartbeat_at` every few seconds, so another instance tells a
// build that runs from one whose process is gone (docs/decisions/208-preview-and-live-build.md). Rows of
// builds started before this migration have none: they are judged by `started_at`.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('builds').addColumn('heartbeat_at', 'timestamptz').execute();
}
