import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * The shop's filters (docs/decisions/192-listing-facets.md): in stock, a price range in cents, and
 * option values (`{ Size: ['M', 'L'] }`: values of one option OR'ed, options AND'ed). A bundle has
 * an option value when one of its items is a variant with it.
 */
export type ListingFilters = {
  inStock: boolean;
  priceMin: number | undefined;
  priceMax: number | undefined;
  options: Record<string, string[]>;
};

export const NO_FILTERS: ListingFilters = { inStock: false, priceMin: undefined, priceMax: undefined, options: {} };

/** Counts of the current list by facet, each ignoring its own selection (as Dawn and Saleor do). */
export type ListingFacets = {
  inStock: number;
  price: { min: number; max: number } | null;
  options: { name: string; values: { value: string; count: number }[] }[];
};

/** Whether a product is in stock: one of its variants is. */
export const PRODUCT_IN_STOCK = sql<boolean>`exists (select 1 from product_variants v where v.product_id = products.id and v.stock > 0)`;
/** Whether a bundle is in stock: it has items and every one is, in its quantity (as reshape.ts says). */
export const BUNDLE_IN_STOCK = sql<boolean>`(exists (select 1 from bundle_items bi where bi.bundle_id = bundles.id) and not exists (select 1 from bundle_items bi join product_variants v on v.id = bi.product_variant_id where bi.bundle_id = bundles.id and v.stock < bi.quantity))`;

/** `entry` (an alias with kind, id) has one of `values` for option `name`. */
function hasOption(entry: string, name: string, values: readonly string[]): RawBuilder<boolean> {
  const e = sql.ref(entry);
  const list = sql.join(values.map((v) => sql`${v}`));
  return sql<boolean>`(case when ${e}.kind = 'product'
    then exists (select 1 from product_variants v where v.product_id = ${e}.id and v.options ->> ${name} in (${list}))
    else exists (select 1 from bundle_items bi join product_variants v on v.id = bi.product_variant_id
      where bi.bundle_id = ${e}.id and v.options ->> ${name} in (${list})) end)`;
}

type Facet = 'inStock' | 'price' | `option:${string}`;

/** The filters as one condition on `entry` (kind, id, price_cents, in_stock), leaving out `except`. */
export function filterCondition(entry: string, filters: ListingFilters, except?: Facet): RawBuilder<boolean> {
  const e = sql.ref(entry);
  const parts: RawBuilder<boolean>[] = [];
  if (filters.inStock && except !== 'inStock') parts.push(sql<boolean>`${e}.in_stock`);
  if (except !== 'price') {
    if (filters.priceMin !== undefined) parts.push(sql<boolean>`${e}.price_cents >= ${filters.priceMin}`);
    if (filters.priceMax !== undefined) parts.push(sql<boolean>`${e}.price_cents <= ${filters.priceMax}`);
  }
  for (const [name, values] of Object.entries(filters.options)) {
    if (values.length > 0 && except !== `option:${name}`) parts.push(hasOption(entry, name, values));
  }
  return parts.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

type FacetRow = {
  facet: 'in_stock' | 'price' | 'option';
  name: string | null;
  value: string | null;
  n: number | null;
  lo: number | null;
  hi: number | null;
};

/**
 * The facets of `entries` (a statement yielding kind, id, price_cents, in_stock: the list before
 * these filters) in one statement. An option's counts keep the other filters but not its own, so
 * ticking "M" still shows how many "L" there are; the same for availability and the price range.
 */
export async function listingFacets(
  db: Kysely<Database>,
  entries: RawBuilder<unknown> | { compile: unknown },
  filters: ListingFilters,
): Promise<ListingFacets> {
  // Whether each entry has a selected option value, worked out once per entry (column m0, m1, …)
  // rather than per entry and value in the counts below: 10,000 products (docs/decisions/192-listing-facets.md).
  const optionFilters = Object.entries(filters.options).filter(([, values]) => values.length > 0);
  const matched = optionFilters.map((_, i) => sql.ref(`l.m${i}`));
  const flags = optionFilters.map(
    ([name, values], i) => sql`, ${hasOption('entries', name, values)} as ${sql.ref(`m${i}`)}`,
  );
  const withoutOptions = { ...filters, options: {} };
  const all = (...parts: RawBuilder<unknown>[]) => sql.join([...parts, ...matched, sql`true`], sql` and `);
  // For an option's own rows (o.name = that option) its filter is left out; the others apply.
  const othersThanOwnOption = sql.join(
    [
      filterCondition('l', withoutOptions),
      ...optionFilters.map(([name], i) => sql`(o.name = ${name} or ${matched[i]})`),
    ],
    sql` and `,
  );
  const { rows } = await sql<FacetRow>`
    with l as materialized (select kind, id, price_cents, in_stock ${sql.join(flags, sql``)} from (${entries}) entries),
    o as materialized (
      select 'product' as kind, v.product_id as id, kv.key as name, kv.value, min(v.position) as position
      from product_variants v cross join lateral jsonb_each_text(v.options) kv
      where v.product_id in (select id from l where kind = 'product')
      group by 1, 2, 3, 4
      union all
      select 'bundle', bi.bundle_id, kv.key, kv.value, min(v.position)
      from bundle_items bi join product_variants v on v.id = bi.product_variant_id
      cross join lateral jsonb_each_text(v.options) kv
      where bi.bundle_id in (select id from l where kind = 'bundle')
      group by 1, 2, 3, 4
    )
    select 'option' as facet, o.name, o.value, count(*)::int as n, min(o.position)::int as lo, null::int as hi
    from l join o on o.kind = l.kind and o.id = l.id
    where ${othersThanOwnOption}
    group by o.name, o.value
    union all
    select 'in_stock', null, null, count(*)::int, null, null from l
    where l.in_stock and ${all(filterCondition('l', withoutOptions, 'inStock'))}
    union all
    select 'price', null, null, null, min(l.price_cents)::int, max(l.price_cents)::int from l
    where ${all(filterCondition('l', withoutOptions, 'price'))}
  `.execute(db);
  const options = new Map<string, { value: string; count: number; position: number }[]>();
  let inStock = 0;
  let price: ListingFacets['price'] = null;
  for (const row of rows) {
    if (row.facet === 'in_stock') inStock = row.n ?? 0;
    else if (row.facet === 'price') price = row.lo === null || row.hi === null ? null : { min: row.lo, max: row.hi };
    else if (row.name !== null && row.value !== null) {
      const values = options.get(row.name) ?? [];
      values.push({ value: row.value, count: row.n ?? 0, position: row.lo ?? 0 });
      options.set(row.name, values);
    }
  }
  const byText = new Intl.Collator('en', { numeric: true });
  return {
    inStock,
    price,
    options: [...options]
      .sort(([a], [b]) => byText.compare(a, b))
      // Values in the variants' order (S, M, L rather than L, M, S), then by text.
      .map(([name, values]) => ({
        name,
        values: values
          .sort((a, b) => a.position - b.position || byText.compare(a.value, b.value))
          .map(({ value, count }) => ({ value, count })),
      })),
  };
}
