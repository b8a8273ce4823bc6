import { sql, type Kysely } from 'kysely';

// One transactional outbox for every mail (docs/decisions/100-mail-outbox.md): a row is written in
// the same transaction as the change it reports and delivered by the outbox worker with retries.
// It replaces dev_outbox, whose rows (mails logged without SMTP) are carried over as delivered.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    // One mail per fact (`order-receipt:{order id}`): a second enqueue of the same fact is a no-op.
    .addColumn('dedupe_key', 'text', (c) => c.unique())
    // Chosen once at enqueue, so every delivery attempt of this mail carries the same Message-ID.
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A worker's claim: nobody else takes the row before locked_until; lease_token names the claim.
    .addColumn('locked_until', 'timestamptz')
    .addColumn('lease_token', 'uuid')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('failed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The worker's claim reads only mails still owed, oldest due first.
  await sql`create index mail_outbox_due on mail_outbox (next_attempt_at, id) where sent_at is null and failed_at is null`.execute(
    db,
  );
  // The development read path: latest mails to one address.
  await sql`create index mail_outbox_to on mail_outbox (lower(to_address), id)`.execute(db);

  await sql`
    insert into mail_outbox (kind, message_id, to_address, subject, text_body, attempts, next_attempt_at, sent_at, created_at)
    select 'dev_outbox', '<dev-outbox-' || id || '@storefront.local>', to_address, subject, body, 1, created_at, created_at, created_at
    from dev_outbox order by id
  `.execute(db);
  await db.schema.dropTable('dev_outbox').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dev_outbox')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`insert into dev_outbox (to_address, subject, body, created_at) select to_address, subject, text_body, created_at from mail_outbox order by id`.execute(
    db,
  );
  await db.schema.dropTable('mail_outbox').execute();
}
