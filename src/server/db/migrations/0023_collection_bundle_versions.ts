import { sql, type Kysely } from 'kysely';

// The console's collection and bundle forms (docs/decisions/206-console-collections-and-bundles.md) are
// saved with a version, as products' are (migration 0018): bumped by every change of what the form shows,
// whoever writes it — the console or an import — so a form opened before the change is refused (409)
// instead of overwriting it. The listing columns migration 0015 keeps on bundles are not the form's.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['bundles', 'collections']) {
    await db.schema
      .alterTable(table)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  }
  await sql`
    create function bundles_bump_version() returns trigger language plpgsql as $$
    begin
      if (new.name, new.description_html, new.featured, new.position)
          is distinct from (old.name, old.description_html, old.featured, old.position)
        and new.version = old.version then
        new.version := old.version + 1;
      end if;
      return new;
    end $$`.execute(db);
  // Only updates naming the form's columns fire it: finalize's stock triggers update the bundles' listing
  // columns (migration 0015) and pay nothing for this one.
  await sql`create trigger bundles_version before update of name, description_html, featured, position on bundles
    for each row execute function bundles_bump_version()`.execute(db);
  await sql`
    create function collections_bump_version() returns trigger language plpgsql as $$
    begin
      if (new.handle, new.title, new.description, new.position)
          is distinct from (old.handle, old.title, old.description, old.position)
        and new.version = old.version then
        new.version := old.version + 1;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger collections_version before update of handle, title, description, position on collections
    for each row execute function collections_bump_version()`.execute(db);

  // Members are on the forms too: any statement writing a bundle's items or a collection's members makes
  // the forms open on them stale. One bump per statement (transition tables), not one per row; PostgreSQL
  // allows transition tables on single-event triggers only, hence one trigger per event.
  const parents = [
    { items: 'bundle_items', parent: 'bundles', key: 'bundle_id' },
    { items: 'collection_items', parent: 'collections', key: 'collection_id' },
  ];
  for (const { items, parent, key } of parents) {
    for (const [event, referencing, rows] of [
      ['insert', 'new table as new_rows', `select ${key} from new_rows`],
      [
        'update',
        'old table as old_rows new table as new_rows',
        `select ${key} from new_rows union select ${key} from old_rows`,
      ],
      ['delete', 'old table as old_rows', `select ${key} from old_rows`],
    ] as const) {
      const fn = sql.raw(`${items}_${event}_bump_version`);
      await sql`create function ${fn}() returns trigger language plpgsql as $$
        begin
          update ${sql.raw(parent)} set version = version + 1 where id in (${sql.raw(rows)});
          return null;
        end $$`.execute(db);
      await sql`create trigger ${sql.raw(`${items}_version_${event}`)} after ${sql.raw(event)} on ${sql.raw(items)}
        referencing ${sql.raw(referencing)} for each statement execute function ${fn}()`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const items of ['bundle_items', 'collection_items'])
    for (const event of ['insert', 'update', 'delete'])
      await sql`drop function if exists ${sql.raw(`${items}_${event}_bump_version`)}() cascade`.execute(db);
  await sql`drop function if exists collections_bump_version() cascade`.execute(db);
  await sql`drop function if exists bundles_bump_version() cascade`.execute(db);
  for (const table of ['bundles', 'collections']) await db.schema.alterTable(table).dropColumn('version').execute();
}
