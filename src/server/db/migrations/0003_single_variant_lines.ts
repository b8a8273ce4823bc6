import { sql, type Kysely } from 'kysely';

// docs/decisions/070-short-lived-caches-and-prepared-statements.md: adding a variant to a cart is one `insert … on conflict do update` on this index instead of a
// lookup and then an insert or an update. It also states the rule the cart code always kept: a variant
// bought on its own has one line per cart (bundle lines are keyed by their bundle).
export async function up(db: Kysely<any>): Promise<void> {
  // Lines written before the index existed cannot break it: merge any duplicates into the oldest.
  await sql`
    update cart_lines as keep set quantity = merged.total
    from (
      select (array_agg(id order by created_at, position, id))[1] as id, sum(quantity)::int as total
      from cart_lines where bundle_id is null
      group by cart_id, product_variant_id having count(*) > 1
    ) as merged
    where keep.id = merged.id`.execute(db);
  await sql`
    delete from cart_lines as l
    where l.bundle_id is null and exists (
      select 1 from cart_lines as o
      where o.cart_id = l.cart_id and o.product_variant_id = l.product_variant_id and o.bundle_id is null
        and (o.created_at, o.position, o.id) < (l.created_at, l.position, l.id)
    )`.execute(db);
  await db.schema
    .createIndex('cart_lines_single_variant')
    .on('cart_lines')
    .columns(['cart_id', 'product_variant_id'])
    .unique()
    .where(sql.ref('bundle_id'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('cart_lines_single_variant').ifExists().execute();
}
