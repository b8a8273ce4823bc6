import { sql, type Kysely } from 'kysely';

// The console's store settings (docs/decisions/203-console-store-settings.md): a version for the settings
// form's optimistic concurrency, bumped by every change of a setting the form shows, whoever writes it (the
// console or the import), so a form opened before the change is refused instead of overwriting it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stores')
    .addColumn('settings_version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`
    create function stores_bump_settings_version() returns trigger language plpgsql as $$
    begin
      if (new.title, new.description, new.favicon_url, new.custom_domain, new.tax_rate_bps,
          new.shipping_flat_cents, new.free_shipping_threshold_cents, new.tax_rates, new.shipping_zones,
          new.policies, new.contact_email, new.low_stock_threshold)
          is distinct from
         (old.title, old.description, old.favicon_url, old.custom_domain, old.tax_rate_bps,
          old.shipping_flat_cents, old.free_shipping_threshold_cents, old.tax_rates, old.shipping_zones,
          old.policies, old.contact_email, old.low_stock_threshold)
        and new.settings_version = old.settings_version then
        new.settings_version := old.settings_version + 1;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger stores_settings_version before update on stores
    for each row execute function stores_bump_settings_version()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger stores_settings_version on stores`.execute(db);
  await sql`drop function stores_bump_settings_version()`.execute(db);
  await db.schema.alterTable('stores').dropColumn('settings_version').execute();
}
