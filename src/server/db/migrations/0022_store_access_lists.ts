import { sql, type Kysely } from 'kysely';

// Restricted stores' access lists in the console (docs/decisions/204-recipients-and-domain-tokens.md):
// when a recipient was listed and last invited (the page shows it; resending is limited), and a domain
// token gets an id of its own so the console can revoke it without the secret travelling in a URL, a
// label to tell tokens apart, and its creation time. Rows written before have `created_at` of now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('allowed_recipients')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('invited_at', 'timestamptz')
    .execute();
  await db.schema
    .alterTable('allowed_domain_tokens')
    .addColumn('id', 'uuid', (c) =>
      c
        .notNull()
        .defaultTo(sql`gen_random_uuid()`)
        .unique(),
    )
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('allowed_domain_tokens')
    .dropColumn('id')
    .dropColumn('label')
    .dropColumn('created_at')
    .execute();
  await db.schema.alterTable('allowed_recipients').dropColumn('created_at').dropColumn('invited_at').execute();
}
