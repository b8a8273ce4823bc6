import { sql, type Kysely } from 'kysely';

// The operator console's access (docs/decisions/197-operator-auth.md): operators, their role in each
// store, one-time sign-in tokens and sessions (both stored as SHA-256 hashes, never the secret itself),
// and the audit log of every change.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    // Lower-cased on the way in, so one person is one operator whatever the case they type.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('store_operators')
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'editor')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('store_operators_pk', ['store_id', 'operator_id'])
    .execute();
  await db.schema.createIndex('store_operators_operator').on('store_operators').column('operator_id').execute();

  await db.schema
    .createTable('operator_sign_in_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('operator_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    // Sent back in x-csrf-token on every write; useless without the HttpOnly cookie.
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').column('operator_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('store_id', 'integer', (c) => c.notNull().references('stores.id').onDelete('cascade'))
    // Null for a change made from the command line (`npm run admin:invite`); the email stays either way.
    .addColumn('operator_id', 'integer', (c) => c.references('operators.id').onDelete('set null'))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_store').on('audit_log').columns(['store_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['audit_log', 'operator_sessions', 'operator_sign_in_tokens', 'store_operators', 'operators'])
    await db.schema.dropTable(table).execute();
}
