import { sql, type Kysely } from 'kysely';

// Options and variants edited in the console (docs/decisions/207-product-editor.md): a variant that
// orders name is deactivated rather than deleted (its row keeps the order's SKU readable and a refund's
// stock a place to go back to), and the edit form's version covers option names and every variant field.
export async function up(db: Kysely<any>): Promise<void> {
  // Null: on sale. Set: hidden from the storefront, out of the listing columns and search, never added
  // to a cart; its SKU stays taken in its product (the import sets it back to null when it lists it again).
  await db.schema.alterTable('product_variants').addColumn('deactivated_at', 'timestamptz').execute();
  // A product orders name is archived rather than deleted, as its variants are deactivated: hidden from
  // the storefront (lists, search, its page, carts), kept for its orders; the import lists it again.
  await db.schema.alterTable('products').addColumn('archived_at', 'timestamptz').execute();

  // As migration 0015's, without deactivated variants: their price and options are no longer offered.
  await sql`
    create or replace function refresh_product_listing(ids integer[]) returns void language sql as $$
      update products p set listed_price_cents = x.price, option_values = x.opts
      from (
        select p2.id,
          coalesce((select min(v.price_cents) from product_variants v
            where v.product_id = p2.id and v.deactivated_at is null), 0) as price,
          array(
            select kv.key || chr(31) || kv.value
            from product_variants v cross join lateral jsonb_each_text(v.options) kv
            where v.product_id = p2.id and v.deactivated_at is null
            group by 1 order by min(v.position), 1
          ) as opts
        from products p2 where p2.id = any(ids)
      ) x
      where p.id = x.id and (p.listed_price_cents, p.option_values) is distinct from (x.price, x.opts)
    $$`.execute(db);

  // The form shows option names and each variant's SKU, name and options now, besides migration 0018's
  // fields: a change of any of them by anyone (an import included) makes a form opened before it stale.
  await sql`
    create or replace function products_bump_version() returns trigger language plpgsql as $$
    begin
      if (new.name, new.description_html, new.featured, new.position, new.option_names)
          is distinct from (old.name, old.description_html, old.featured, old.position, old.option_names)
        and new.version = old.version then
        new.version := old.version + 1;
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create or replace function variants_bump_product_version() returns trigger language plpgsql as $$
    begin
      if (new.price_cents, new.sku, new.name, new.options, new.deactivated_at)
          is distinct from (old.price_cents, old.sku, old.name, old.options, old.deactivated_at) then
        update products set version = version + 1 where id = new.product_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`drop trigger product_variants_price_version on product_variants`.execute(db);
  await sql`create trigger product_variants_form_version
    after update of price_cents, sku, name, options, deactivated_at on product_variants
    for each row execute function variants_bump_product_version()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger product_variants_form_version on product_variants`.execute(db);
  await sql`
    create or replace function variants_bump_product_version() returns trigger language plpgsql as $$
    begin
      if new.price_cents is distinct from old.price_cents then
        update products set version = version + 1 where id = new.product_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger product_variants_price_version after update of price_cents on product_variants
    for each row execute function variants_bump_product_version()`.execute(db);
  await sql`
    create or replace function products_bump_version() returns trigger language plpgsql as $$
    begin
      if (new.name, new.description_html, new.featured, new.position)
          is distinct from (old.name, old.description_html, old.featured, old.position)
        and new.version = old.version then
        new.version := old.version + 1;
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create or replace function refresh_product_listing(ids integer[]) returns void language sql as $$
      update products p set listed_price_cents = x.price, option_values = x.opts
      from (
        select p2.id,
          coalesce((select min(v.price_cents) from product_variants v where v.product_id = p2.id), 0) as price,
          array(
            select kv.key || chr(31) || kv.value
            from product_variants v cross join lateral jsonb_each_text(v.options) kv
            where v.product_id = p2.id
            group by 1 order by min(v.position), 1
          ) as opts
        from products p2 where p2.id = any(ids)
      ) x
      where p.id = x.id and (p.listed_price_cents, p.option_values) is distinct from (x.price, x.opts)
    $$`.execute(db);
  await db.schema.alterTable('products').dropColumn('archived_at').execute();
  await db.schema.alterTable('product_variants').dropColumn('deactivated_at').execute();
}
