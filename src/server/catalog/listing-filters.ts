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

/** Whether a product is in stock: one of its variants is (counted by migration 0015's triggers). */
export const PRODUCT_IN_STOCK = sql<boolean>`(products.stocked_variants > 0)`;
/** Whether a bundle is in stock: it has items and every one is, in its quantity (as reshape.ts says). */
export const BUNDLE_IN_STOCK = sql<boolean>`(bundles.item_count > 0 and bundles.short_items = 0)`;

/** How migration 0015 keeps an option value in `option_values`: name, U+001F, value. */
const SEPARATOR = '\u001f';
const optionValue = (name: string, value: string) => `${name}${SEPARATOR}${value}`;

/** `entry` (an alias with option_values) has one of `values` for option `name`: a GIN index lookup. */
function hasOption(entry: string, name: string, values: readonly string[]): RawBuilder<boolean> {
  const wanted = values.map((value) => optionValue(name, value));
  return sql<boolean>`(${sql.ref(entry)}.option_values && ${wanted}::text[])`;
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

const byText = new Intl.Collator('en', { numeric: true });
const NUMBER = /^\d+(\.\d+)?$/;

/**
 * Numbers first, in numeric order (shoe sizes 7, 8, 10); then values in the order their products list
 * them (S, M, L, XL rather than L, M, S, XL: by their average rank among each product's values of that
 * option), then by text. Values of every product of a store share one list, tees' and shoes' alike.
 */
function byValueOrder(a: { value: string; position: number }, b: { value: string; position: number }): number {
  const aNumber = NUMBER.test(a.value);
  const bNumber = NUMBER.test(b.value);
  if (aNumber !== bNumber) return aNumber ? -1 : 1;
  if (aNumber) return Number(a.value) - Number(b.value);
  return a.position - b.position || byText.compare(a.value, b.value);
}

/**
 * The facets of `entries` (a statement yielding kind, id, price_cents, in_stock: the list before
 * these filters) in one statement. An option's counts keep the other filters but not its own, so
 * ticking "M" still shows how many "L" there are; the same for availability and the price range. Every
 * value of the list is there, with 0 where the other filters leave none, so the shopper sees what exists.
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
    with l as materialized (
      select kind, id, price_cents, in_stock, option_values ${sql.join(flags, sql``)} from (${entries}) entries
    )
    select 'option' as facet, o.name, o.value, (count(*) filter (where ${othersThanOwnOption}))::int as n,
      avg(o.rank)::float8 as lo, null::int as hi
    from l cross join lateral (
      select pair.name, pair.value, row_number() over (partition by pair.name order by ov.position) as rank
      from unnest(l.option_values) with ordinality as ov(pair, position)
      cross join lateral (
        select split_part(ov.pair, ${SEPARATOR}, 1) as name, substr(ov.pair, strpos(ov.pair, ${SEPARATOR}) + 1) as value
      ) pair
    ) o
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
  return {
    inStock,
    price,
    options: [...options]
      .sort(([a], [b]) => byText.compare(a, b))
      .map(([name, values]) => ({
        name,
        values: values.sort(byValueOrder).map(({ value, count }) => ({ value, count })),
      })),
  };
}
