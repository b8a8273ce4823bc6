import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A description as words: tags and entities become spaces, so `<li>` never matches "li". */
const plainText = (html: RawBuilder<string>) => sql<string>`regexp_replace(${html}, '<[^>]*>|&[#a-z0-9]+;', ' ', 'gi')`;

/**
 * Writes the text search matches (docs/decisions/191-search-engine.md) for a store's products — name,
 * description text, SKUs, variant names and option values of the variants on sale — and bundles — name and description text —
 * lower-cased. Run after every change of the catalog, in the same transaction.
 */
export async function refreshSearchText(
  db: Kysely<Database>,
  storeId: number,
  only?: { productId: number } | { bundleId: number },
): Promise<void> {
  // One product or bundle edited in the console rewrites its own text only, not the whole store's.
  if (!only || 'productId' in only) {
    const product = only ? sql` and p.id = ${only.productId}` : sql``;
    await sql`update products p set search_text = lower(p.name || ' ' || ${plainText(sql`p.description_html`)} || ' ' || coalesce((
    select string_agg(v.sku || ' ' || v.name || ' ' || coalesce((select string_agg(o.value, ' ') from jsonb_each_text(v.options) o), ''), ' ')
    from product_variants v where v.product_id = p.id and v.deactivated_at is null), ''))
    where p.store_id = ${storeId}${product}`.execute(db);
    if (only) return;
  }
  const bundle = only ? sql` and b.id = ${only.bundleId}` : sql``;
  await sql`update bundles b set search_text = lower(b.name || ' ' || ${plainText(sql`b.description_html`)})
    where b.store_id = ${storeId}${bundle}`.execute(db);
}
