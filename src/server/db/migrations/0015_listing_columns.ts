import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// What a listing filters, sorts and counts by, kept on each product and bundle
// (docs/decisions/192-listing-facets.md): its listed price, whether it is in stock and its option
// values. Triggers keep them true whoever writes the variants or a bundle's items (the import, checkout
// taking stock, an operator), so no writer can forget them. Stock is kept as counters changed by
// deltas — variants in stock per product, items short per bundle — because deltas from two orders
// commute: recounting under READ COMMITTED would let two orders emptying the last two variants of
// a product each see the other's still in stock.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('listed_price_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('stocked_variants', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('option_values', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
  await db.schema
    .alterTable('bundles')
    .addColumn('listed_price_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('item_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('short_items', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('option_values', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
  await sql`create index bundle_items_variant on bundle_items (product_variant_id)`.execute(db);
  for (const table of ['products', 'bundles']) {
    await sql`create index ${sql.id(`${table}_option_values`)} on ${sql.table(table)} using gin (option_values)`.execute(
      db,
    );
  }

  // An option value is stored as name, U+001F, value: neither an option's name nor its value holds
  // a control character (the import refuses them), so the pair splits back unambiguously.
  await sql`
    create function refresh_product_listing(ids integer[]) returns void language sql as $$
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

  // A bundle's counts are recounted only when its items change (an import or an operator); the
  // variants are locked first so an order taking their stock meanwhile is counted after, by delta.
  await sql`
    create function refresh_bundle_listing(ids integer[]) returns void language plpgsql as $$
    begin
      perform 1 from product_variants v
        where v.id in (select bi.product_variant_id from bundle_items bi where bi.bundle_id = any(ids))
        order by v.id for share;
      update bundles b set listed_price_cents = x.price, option_values = x.opts,
        item_count = x.items, short_items = x.short
      from (
        select b2.id,
          coalesce((select sum(v.price_cents * bi.quantity) from bundle_items bi
            join product_variants v on v.id = bi.product_variant_id where bi.bundle_id = b2.id), 0) as price,
          array(
            select kv.key || chr(31) || kv.value
            from bundle_items bi join product_variants v on v.id = bi.product_variant_id
            cross join lateral jsonb_each_text(v.options) kv
            where bi.bundle_id = b2.id
            group by 1 order by min(v.position), 1
          ) as opts,
          (select count(*) from bundle_items bi where bi.bundle_id = b2.id)::integer as items,
          (select count(*) from bundle_items bi join product_variants v on v.id = bi.product_variant_id
            where bi.bundle_id = b2.id and v.stock < bi.quantity)::integer as short
        from bundles b2 where b2.id = any(ids)
      ) x
      where b.id = x.id
        and (b.listed_price_cents, b.option_values, b.item_count, b.short_items)
          is distinct from (x.price, x.opts, x.items, x.short);
    end $$`.execute(db);

  // Stock moves by delta: a row leaving the table counts -1, a row entering it +1, so one function
  // serves inserts, updates and deletes. Prices and options are recomputed only where they changed.
  const variants = (arg: string, alias: string) =>
    sql.raw(
      `jsonb_to_recordset(${arg}) as ${alias}(id integer, product_id integer, stock integer, price_cents bigint, options jsonb, position integer)`,
    );
  await sql`
    create function variants_moved(entered jsonb, left_ jsonb) returns void language plpgsql as $$
    declare
      products_ integer[];
      bundles_ integer[];
    begin
      update products p set stocked_variants = p.stocked_variants + d.delta
      from (
        select product_id, sum(sign * (stock > 0)::int) as delta from (
          select product_id, stock, 1 as sign from ${variants('entered', 'n')}
          union all select product_id, stock, -1 from ${variants('left_', 'o')}
        ) moved group by 1
      ) d where p.id = d.product_id and d.delta <> 0;

      update bundles b set short_items = b.short_items + d.delta
      from (
        select bi.bundle_id, sum(m.sign * (m.stock < bi.quantity)::int) as delta from (
          select id, stock, 1 as sign from ${variants('entered', 'n')}
          union all select id, stock, -1 from ${variants('left_', 'o')}
        ) m join bundle_items bi on bi.product_variant_id = m.id group by 1
      ) d where b.id = d.bundle_id and d.delta <> 0;

      products_ := array(
        select coalesce(n.product_id, o.product_id)
        from ${variants('entered', 'n')} full join ${variants('left_', 'o')} on o.id = n.id
        where (n.price_cents, n.options, n.product_id, n.position)
          is distinct from (o.price_cents, o.options, o.product_id, o.position)
        union select o.product_id
        from ${variants('entered', 'n')} join ${variants('left_', 'o')} on o.id = n.id
        where n.product_id <> o.product_id
      );
      bundles_ := array(
        select distinct bi.bundle_id
        from ${variants('entered', 'n')} join ${variants('left_', 'o')} on o.id = n.id
        join bundle_items bi on bi.product_variant_id = n.id
        where (n.price_cents, n.options, n.position) is distinct from (o.price_cents, o.options, o.position)
      );
      -- An order taking stock changes neither: it pays for the two deltas above only.
      if cardinality(products_) > 0 then perform refresh_product_listing(products_); end if;
      if cardinality(bundles_) > 0 then perform refresh_bundle_listing(bundles_); end if;
    end $$`.execute(db);

  // A whole store rewritten in one transaction (the catalog import) counts once at the end instead
  // of after every statement: it sets this transaction-local setting and calls refresh_store_listings.
  // Its writes hold every variant they touch, so no order's stock change falls between.
  await sql`
    create function refresh_store_listings(store integer) returns void language plpgsql as $$
    begin
      update products p set stocked_variants = x.n
      from (
        select p2.id, (select count(*) from product_variants v where v.product_id = p2.id and v.stock > 0)::integer as n
        from products p2 where p2.store_id = store
      ) x
      where p.id = x.id and p.stocked_variants <> x.n;
      perform refresh_product_listing(array(select id from products where store_id = store));
      perform refresh_bundle_listing(array(select id from bundles where store_id = store));
    end $$`.execute(db);
  const deferred = sql.raw(`coalesce(current_setting('storefront.listings_deferred', true), '') <> 'on'`);

  // Transition tables allow one event per trigger, hence a trigger per event, each passing its rows on.
  const rows = (table: string) => sql.raw(`(select coalesce(jsonb_agg(r), '[]') from ${table} r)`);
  const none = sql.raw(`'[]'::jsonb`);
  for (const [event, entered, left] of [
    ['insert', rows('new_rows'), none],
    ['update', rows('new_rows'), rows('old_rows')],
    ['delete', none, rows('old_rows')],
  ] as const) {
    const past = `${event.replace(/e$/, '')}ed`;
    const referencing = sql.raw(
      event === 'insert'
        ? 'new table as new_rows'
        : event === 'update'
          ? 'old table as old_rows new table as new_rows'
          : 'old table as old_rows',
    );
    await sql`create function ${sql.raw(`variants_${past}`)}() returns trigger language plpgsql as $$
      begin
        -- An upsert fires the insert and the update trigger, one of them with no rows.
        if ${deferred} and exists (select 1 from ${sql.raw(event === 'delete' ? 'old_rows' : 'new_rows')}) then
          perform variants_moved(${entered}, ${left});
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ${sql.raw(`product_variants_listing_${event}`)} after ${sql.raw(event)} on product_variants
      referencing ${referencing} for each statement execute function ${sql.raw(`variants_${past}`)}()`.execute(db);
    const bundles = sql.raw(
      event === 'insert'
        ? 'select bundle_id from new_rows'
        : event === 'update'
          ? 'select bundle_id from new_rows union select bundle_id from old_rows'
          : 'select bundle_id from old_rows',
    );
    await sql`create function ${sql.raw(`bundle_items_${past}`)}() returns trigger language plpgsql as $$
      begin
        if ${deferred} and exists (select 1 from ${sql.raw(event === 'delete' ? 'old_rows' : 'new_rows')}) then
          perform refresh_bundle_listing(array(${bundles}));
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ${sql.raw(`bundle_items_listing_${event}`)} after ${sql.raw(event)} on bundle_items
      referencing ${referencing} for each statement execute function ${sql.raw(`bundle_items_${past}`)}()`.execute(db);
  }

  // The columns of what is already there.
  await sql`update products p set stocked_variants = (select count(*) from product_variants v where v.product_id = p.id and v.stock > 0)`.execute(
    db,
  );
  await sql`select refresh_product_listing(array(select id from products))`.execute(db);
  await sql`select refresh_bundle_listing(array(select id from bundles))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Dropping the functions drops their triggers.
  for (const fn of ['variants', 'bundle_items'].flatMap((t) =>
    ['inserted', 'updated', 'deleted'].map((e) => `${t}_${e}`),
  ))
    await sql`drop function if exists ${sql.raw(fn)}() cascade`.execute(db);
  await sql`drop function if exists variants_moved(jsonb, jsonb)`.execute(db);
  await sql`drop function if exists refresh_store_listings(integer)`.execute(db);
  await sql`drop function if exists refresh_bundle_listing(integer[])`.execute(db);
  await sql`drop function if exists refresh_product_listing(integer[])`.execute(db);
  await sql`drop index if exists bundle_items_variant`.execute(db);
  await db.schema.alterTable('bundles').dropColumn('listed_price_cents').dropColumn('item_count').execute();
  await db.schema.alterTable('bundles').dropColumn('short_items').dropColumn('option_values').execute();
  await db.schema
    .alterTable('products')
    .dropColumn('listed_price_cents')
    .dropColumn('stocked_variants')
    .dropColumn('option_values')
    .execute();
}
