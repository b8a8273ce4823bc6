/**
 * A 100,000-product catalog (docs/decisions/214-scale-and-contention.md): the streamed import's peak
 * memory, the full build against the 10,000-product build of the same run, and on the imported
 * database the listing pages and search of the 10,000-product bench (search-bench.ts) with the store's
 * listing index (docs/decisions/200-listing-index.md): how long reading it takes and blocks the event loop.
 */
import path from 'node:path';
import { GENERATED_SLUG } from './catalog-generator.ts';
import { openDatabase } from '../../src/server/db/connect.ts';
import { systemClock } from '../../src/server/http/context.ts';
import { ListingIndexes } from '../../src/server/listings/listing-index.ts';
import type { BudgetResult } from './budgets.ts';
import { buildGenerated, type BuildFigures, type GeneratedPlace } from './build-bench.ts';
import { listingQueries, serverQueries, type ListingFigure, type SearchQueryFigure } from './search-bench.ts';
import { median, percentile, round } from './stats.ts';

export const SCALE_PRODUCTS = 100_000;
const REFERENCE_PRODUCTS = 10_000;

/** The bars: the big build at most 12× the reference's wall clock, under 2 GiB; the import under 1 GiB. */
export const BUILD_TIMES_REFERENCE = 12;
/**
 * The big import at most as many times the reference's as the build: ten times the products in no more than
 * 12 times the time, which a cost growing with the square of the catalog misses by far
 * (docs/decisions/226-catalog-change-triggers-without-joins.md).
 */
export const IMPORT_TIMES_REFERENCE = 12;
const BUILD_PEAK_MIB = 2048;
const IMPORT_PEAK_MIB = 1024;
/** The API's p99 budget, as for the listings of the 10,000-product catalog (budgets.ts). */
const API_P99_MS = 20;

const PLACE: GeneratedPlace = {
  dataDir: path.resolve('.data-bench-100k'),
  buildsDir: path.resolve('.data-bench-100k-builds'),
  catalogFile: path.resolve('.data-bench-100k-catalog.json'),
};

export type ListingIndexFigures = {
  entries: number;
  readMedianMs: number;
  readP99Ms: number;
  /** The longest the event loop was blocked while the index was read (PGlite runs on this thread). */
  blockMaxMs: number;
};

export type ScaleFigures = {
  products: number;
  reference: BuildFigures;
  big: BuildFigures;
  /** PGlite, as `npm start` runs by default, on the database the build used. */
  listings: ListingFigure[];
  search: SearchQueryFigure[];
  index: ListingIndexFigures;
  minutes: number;
};

async function indexFigures(db: ReturnType<typeof openDatabase>, storeId: number): Promise<ListingIndexFigures> {
  // The longest gap between ticks of a 1 ms timer while the index is read: how long a request waits.
  let last = performance.now();
  let blockMaxMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    blockMaxMs = Math.max(blockMaxMs, now - last - 1);
    last = now;
  }, 1);
  const reads: number[] = [];
  let entries = 0;
  for (let i = 0; i < 6; i++) {
    const t = performance.now();
    entries = (await new ListingIndexes(0, systemClock).of(db, storeId)).entries.length;
    if (i > 0) reads.push(performance.now() - t); // the first is a warm-up
  }
  clearInterval(ticker);
  reads.sort((a, b) => a - b);
  return {
    entries,
    readMedianMs: round(median(reads), 1),
    readP99Ms: round(percentile(reads, 99), 1),
    blockMaxMs: round(blockMaxMs, 1),
  };
}

/** The whole `scale` section: ≈ ten times the build section's time, so only with `--only scale`. */
export async function measureScale(log: (line: string) => void): Promise<ScaleFigures> {
  const started = performance.now();
  const reference = await buildGenerated(REFERENCE_PRODUCTS, log);
  const big = await buildGenerated(SCALE_PRODUCTS, log, PLACE);
  const db = openDatabase({ dataDir: PLACE.dataDir });
  try {
    const { id } = await db
      .selectFrom('stores')
      .select('id')
      .where('slug', '=', GENERATED_SLUG)
      .executeTakeFirstOrThrow();
    const index = await indexFigures(db, id);
    log(
      `  listing index of ${index.entries} entries: read in ${index.readMedianMs} ms (p99 ${index.readP99Ms}), event loop blocked up to ${index.blockMaxMs} ms`,
    );
    const listings = await listingQueries(db, 5); // indexFigures read it already
    for (const l of listings) log(`  listing ${l.query}: ${l.found} found, median ${l.medianMs} ms, p99 ${l.p99Ms} ms`);
    const search = await serverQueries(db, [GENERATED_SLUG]);
    for (const q of search) log(`  search "${q.query}": ${q.found} found, median ${q.medianMs} ms`);
    return {
      products: SCALE_PRODUCTS,
      reference,
      big,
      listings,
      search,
      index,
      minutes: round((performance.now() - started) / 60_000, 1),
    };
  } finally {
    await db.destroy();
  }
}

/** The scale budgets, judged within this run. */
export function scaleBudgets(f: ScaleFigures, conditions: string): BudgetResult[] {
  const n = (x: number) => x.toLocaleString('en-US');
  const times = f.big.wallSeconds / f.reference.wallSeconds;
  const importTimes =
    f.big.importSeconds && f.reference.importSeconds ? f.big.importSeconds / f.reference.importSeconds : undefined;
  const out: BudgetResult[] = [
    {
      budget: `import of ${n(f.products)} products (streamed) peak memory < 1 GiB`,
      measured: `${f.big.importPeakMiB ?? '?'} MiB in ${f.big.importSeconds ?? '?'} s`,
      pass: (f.big.importPeakMiB ?? Infinity) < IMPORT_PEAK_MIB,
    },
    {
      budget: `import of ${n(f.products)} products ≤ ${IMPORT_TIMES_REFERENCE}× the ${n(REFERENCE_PRODUCTS)}-product import of the same run`,
      measured:
        importTimes === undefined
          ? 'an import not timed'
          : `${importTimes.toFixed(1)}× (${f.big.importSeconds} s vs ${f.reference.importSeconds} s; ${conditions})`,
      pass: importTimes !== undefined && importTimes <= IMPORT_TIMES_REFERENCE,
    },
    {
      budget: `build ${n(f.products)} products ≤ ${BUILD_TIMES_REFERENCE}× the ${n(f.reference.pages)}-page build of the same run`,
      measured: `${times.toFixed(1)}× (${f.big.wallSeconds} s vs ${f.reference.wallSeconds} s; ${conditions})`,
      pass: times <= BUILD_TIMES_REFERENCE,
    },
    {
      budget: `build ${n(f.products)} products peak memory < 2 GiB`,
      measured: `${f.big.peakMemoryMiB} MiB`,
      pass: f.big.peakMemoryMiB < BUILD_PEAK_MIB,
    },
  ];
  for (const listing of f.listings.filter((l) => !l.background))
    out.push({
      budget: `listing of ${n(f.products)} products, ${listing.query}: p99 ≤ ${API_P99_MS} ms (PGlite)`,
      measured: `${listing.p99Ms} ms`,
      pass: listing.p99Ms <= API_P99_MS,
    });
  return out;
}
