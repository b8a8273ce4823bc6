/**
 * The search figures of docs/decisions/191-search-engine.md: the query the API runs (pg_trgm, on
 * PGlite and PostgreSQL) against a client-side index (Orama) over the same documents, for the demo
 * store and a generated catalog: JS weight, index size and query time. Beside them, the filtered
 * listings of docs/decisions/192-listing-facets.md on the same catalog: a page with its facets, as
 * the API answers it.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { create, insert, save, search as oramaSearch } from '@orama/orama';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { importCatalog } from '../../src/server/catalog/import.ts';
import { listingFilters } from '../../src/server/catalog/list-query.ts';
import { NO_FILTERS } from '../../src/server/catalog/listing-filters.ts';
import { searchMatches, searchTerms } from '../../src/server/catalog/search-query.ts';
import { systemClock } from '../../src/server/http/context.ts';
import { ListingIndexes, queryIndex } from '../../src/server/listings/listing-index.ts';
import { listingPage } from '../../src/server/listings/routes.ts';
import { openDatabase } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { seedDemoDataIfEmpty } from '../../src/server/db/seed.ts';
import { BENCH } from './bench-env.ts';
import { joinBackends, withCpuGroup } from './cpu-group.ts';
import { GENERATED_SLUG, generateCatalog } from './catalog-generator.ts';
import { median, percentile, round } from './stats.ts';

export type SearchQueryFigure = { store: string; query: string; found: number; medianMs: number };
export type ListingFigure = {
  query: string;
  found: number;
  medianMs: number;
  p99Ms: number;
  /** Not a page a shopper waits for: the index's read, done in the background under traffic. */
  background?: boolean;
};
export type SearchFigures = {
  products: number;
  server: { engine: string; queries: SearchQueryFigure[] }[];
  /** Where the PostgreSQL queries ran (docs/decisions/229-measured-processes-in-a-cpu-group.md). */
  postgresCpu?: string;
  /** A listing page with its facets on the generated catalog, per engine. */
  listings?: { engine: string; queries: ListingFigure[] }[];
  client: {
    engine: string;
    jsGzipBytes: number;
    indexes: { store: string; documents: number; gzipBytes: number; buildMs: number; queries: SearchQueryFigure[] }[];
  };
};

/** Queries per store: a word of a description, a typo, two words out of order, a broad word. */
const QUERIES: Record<string, string[]> = {
  acme: ['colombia', 'colombai', 'mug stoneware', 'coffee'],
  [GENERATED_SLUG]: ['9999', 'prodcut 4242', 'product bench 4242', 'durable'],
};
const RUNS = 15;

async function timeIt(run: () => Promise<number>): Promise<{ found: number; medianMs: number }> {
  let found = await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    found = await run();
    times.push(performance.now() - t);
  }
  return { found, medianMs: round(median(times), 2) };
}

async function loadCatalogs(db: Kysely<Database>, products: number): Promise<void> {
  await migrateToLatest(db);
  await seedDemoDataIfEmpty(db);
  await importCatalog(db, parseCatalog(generateCatalog(products, Math.max(1, Math.round(products / 100)))));
}

/** The API's search of each store of `stores` (scale-bench.ts asks for the generated one alone). */
export async function serverQueries(
  db: Kysely<Database>,
  stores: readonly string[] = Object.keys(QUERIES),
): Promise<SearchQueryFigure[]> {
  // One connection, as a busy store's pool reuses each: PostgreSQL plans a prepared statement anew for
  // its first five runs only, and a pool of fresh connections hid a generic plan 10 times slower (ADR 191).
  return db.connection().execute((connection) => queriesOn(connection, stores));
}

async function queriesOn(db: Kysely<Database>, stores: readonly string[]): Promise<SearchQueryFigure[]> {
  const out: SearchQueryFigure[] = [];
  const listings = new ListingIndexes(1000, systemClock);
  for (const slug of stores) {
    const queries = QUERIES[slug]!;
    const { id } = await db.selectFrom('stores').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
    for (const query of queries) {
      const figure = await timeIt(async () => {
        const scores = await searchMatches(db, id, searchTerms(query));
        const options = {
          page: 1,
          perPage: 8,
          sort: undefined,
          q: undefined,
          featured: undefined,
          filters: NO_FILTERS,
        };
        return queryIndex(await listings.of(db, id), { scores }, options).total;
      });
      out.push({ store: slug, query, ...figure });
    }
  }
  return out;
}

/** Listing queries of the generated catalog: the API's query strings, as a shopper's filters send them. */
const LISTINGS: Record<string, string> = {
  'all, featured first': '',
  'price high to low': 'sort=-price',
  'Size M': 'option=Size:M',
  'Size M, $20–80, in stock, by price': 'option=Size:M&price_min=20&price_max=80&in_stock=true&sort=price',
  'page 100 by name': 'sort=name&page=100',
};
/** Enough runs that p99 is not the single slowest: a background read of the index may meet one of them. */
const LISTING_RUNS = 200;
/**
 * Calls of each listing before the timed ones. The first calls of a process run before V8 has optimized
 * the index's walk and PGlite's WebAssembly: at 100,000 products the walk took 62 ms on the second call
 * and 3 ms from the third, a page's entries 14–58 ms for ten calls and 4–10 ms after. A running store has
 * served those calls long before; with one warm-up they were the p99 of whichever listing came first.
 */
const LISTING_WARMUP = 20;

/**
 * A listing page as the API answers it, with the store's listing index kept as `npm start` keeps it
 * (read again every LISTING_INDEX_MS: docs/decisions/200-listing-index.md); and that read alone,
 * `indexReads` times (fewer at 100,000 products, where each read takes seconds: scale-bench.ts).
 */
export async function listingQueries(db: Kysely<Database>, indexReads = LISTING_RUNS): Promise<ListingFigure[]> {
  const { id } = await db
    .selectFrom('stores')
    .select('id')
    .where('slug', '=', GENERATED_SLUG)
    .executeTakeFirstOrThrow();
  const out: ListingFigure[] = [];
  const deps = { db, listings: new ListingIndexes(1000, systemClock) };
  const unkept = new ListingIndexes(0, systemClock);
  const reads: number[] = [];
  let entries = 0;
  for (let i = 0; i <= indexReads; i++) {
    const t = performance.now();
    entries = (await unkept.of(db, id)).entries.length;
    if (i > 0) reads.push(performance.now() - t); // the first is a warm-up
  }
  reads.sort((a, b) => a - b);
  out.push({
    query: 'the listing index, read anew',
    background: true,
    found: entries,
    medianMs: round(median(reads), 1),
    p99Ms: round(percentile(reads, 99), 1),
  });
  for (const [query, search] of Object.entries(LISTINGS)) {
    const params = new URLSearchParams(search);
    const sort = (params.get('sort') ?? undefined) as 'name' | '-price' | 'price' | undefined;
    const options = {
      page: Number(params.get('page') ?? 1),
      perPage: 48,
      sort,
      q: undefined,
      featured: undefined,
      filters: listingFilters({
        in_stock: params.get('in_stock') === 'true' ? 'true' : undefined,
        price_min: params.get('price_min') ?? undefined,
        price_max: params.get('price_max') ?? undefined,
        option: params.getAll('option'),
      }),
    };
    let found = 0;
    for (let i = 0; i < LISTING_WARMUP; i++) found = (await listingPage(deps, id, options)).meta.total;
    const times: number[] = [];
    for (let i = 0; i < LISTING_RUNS; i++) {
      const t = performance.now();
      found = (await listingPage(deps, id, options)).meta.total;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    out.push({ query, found, medianMs: round(median(times), 1), p99Ms: round(percentile(times, 99), 1) });
  }
  return out;
}

/** The documents a client-side index would hold: the same text the API's query matches. */
async function documents(db: Kysely<Database>, slug: string) {
  const rows = await db
    .selectFrom('products as p')
    .innerJoin('stores as s', 's.id', 'p.store_id')
    .select(['p.id', 'p.name', 'p.description_html'])
    .select(
      sql<string | null>`(select string_agg(v.sku, ' ') from product_variants v where v.product_id = p.id)`.as('skus'),
    )
    .where('s.slug', '=', slug)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    name: r.name,
    description: r.description_html.replace(/<[^>]*>/g, ' '),
    skus: r.skus ?? '',
    image: '/images/demo/placeholder.svg',
    price: 0,
  }));
}

/** Orama's search as a lazily loaded chunk would ship it: minified, gzip level 9. */
async function oramaJsWeight(): Promise<number> {
  const out = await build({
    stdin: {
      contents: "export { create, insert, load, search } from '@orama/orama';",
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    platform: 'browser',
  });
  return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).length;
}

async function clientIndexes(db: Kysely<Database>): Promise<SearchFigures['client']['indexes']> {
  const out: SearchFigures['client']['indexes'] = [];
  for (const [slug, queries] of Object.entries(QUERIES)) {
    const docs = await documents(db, slug);
    const t = performance.now();
    const index = create({
      schema: { name: 'string', description: 'string', skus: 'string', image: 'string', price: 'number' } as const,
    });
    for (const doc of docs) await insert(index, doc);
    const buildMs = round(performance.now() - t, 0);
    const gzipBytes = gzipSync(JSON.stringify(save(index)), { level: 9 }).length;
    const figures: SearchQueryFigure[] = [];
    for (const query of queries) {
      const figure = await timeIt(async () => {
        const found = await oramaSearch(index, {
          term: query,
          properties: ['name', 'description', 'skus'],
          tolerance: 1,
          limit: 8,
        });
        return found.count;
      });
      figures.push({ store: slug, query, ...figure });
    }
    out.push({ store: slug, documents: docs.length, gzipBytes, buildMs, queries: figures });
  }
  return out;
}

/** Runs both engines; PostgreSQL is measured when the bench's admin URL answers, else left out. */
export async function measureSearch(products: number, log: (line: string) => void): Promise<SearchFigures> {
  const pglite = openDatabase({});
  const listings: NonNullable<SearchFigures['listings']> = [];
  const figures: SearchFigures = {
    products,
    server: [],
    listings,
    client: { engine: 'Orama', jsGzipBytes: await oramaJsWeight(), indexes: [] },
  };
  try {
    await loadCatalogs(pglite, products);
    figures.server.push({ engine: 'PGlite pg_trgm', queries: await serverQueries(pglite) });
    listings.push({ engine: 'PGlite', queries: await listingQueries(pglite) });
    figures.client.indexes = await clientIndexes(pglite);
  } finally {
    await pglite.destroy();
  }
  const database = `bench_search_${process.pid}`;
  const admin = new pg.Client({ connectionString: BENCH.postgresAdminUrl });
  try {
    await admin.connect();
  } catch {
    log('  PostgreSQL not reachable: its search figures are left out');
    return figures;
  }
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(BENCH.postgresAdminUrl);
  url.pathname = `/${database}`;
  const postgres = openDatabase({ databaseUrl: url.href });
  try {
    await loadCatalogs(postgres, products);
    // docs/decisions/229-measured-processes-in-a-cpu-group.md: this process and the database's backends
    // serving it.
    const { result, cpu } = await withCpuGroup([process.pid], async (add, where) => {
      log(`  this process and its PostgreSQL backends ${where}`);
      const stopJoining = await joinBackends(admin, database, add);
      try {
        return { search: await serverQueries(postgres), listing: await listingQueries(postgres) };
      } finally {
        stopJoining();
      }
    });
    figures.server.push({ engine: 'PostgreSQL pg_trgm', queries: result.search });
    listings.push({ engine: 'PostgreSQL', queries: result.listing });
    figures.postgresCpu = `this process and its PostgreSQL backends ${cpu}`;
  } finally {
    await postgres.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
  return figures;
}

/** The figures as report lines. */
export function searchLines(f: SearchFigures): string[] {
  const q = (x: SearchQueryFigure) => `${x.store} "${x.query}": ${x.found} found, ${x.medianMs} ms`;
  return [
    ...f.server.flatMap((s) => s.queries.map((x) => `  ${s.engine} ${q(x)}`)),
    ...(f.listings ?? []).flatMap((l) =>
      l.queries.map(
        (x) =>
          `  ${l.engine} listing of ${f.products} products, ${x.query}: ${x.found} found, ${x.medianMs} ms median, ${x.p99Ms} ms p99`,
      ),
    ),
    `  ${f.client.engine} JS: ${(f.client.jsGzipBytes / 1024).toFixed(1)} KB gzip`,
    ...f.client.indexes.flatMap((i) => [
      `  ${f.client.engine} index ${i.store}: ${i.documents} documents, ${(i.gzipBytes / 1024).toFixed(1)} KB gzip, built in ${i.buildMs} ms`,
      ...i.queries.map((x) => `  ${f.client.engine} ${q(x)}`),
    ]),
  ];
}
