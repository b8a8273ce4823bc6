import type { SearchFigures } from './search-bench.ts';
import type { LoadFigures } from './api-bench.ts';
import type { BuildFigures } from './build-bench.ts';
import type { PageJs } from './js-weight.ts';
import type { LighthouseFigures } from './lighthouse-runs.ts';

/** Everything one `npm run bench` measured (sections not run are absent). */
export type BenchResults = {
  search?: SearchFigures;
  js?: PageJs[];
  lighthouse?: LighthouseFigures[];
  build?: BuildFigures[];
  api?: {
    pglite?: LoadFigures[];
    postgres?: LoadFigures[];
    ceiling?: LoadFigures;
    /** Evenly paced at the offered rate (the budget's figure). */
    fixedRate?: LoadFigures[];
    /** autocannon's overallRate at the same offered rate: each second's share sent in a burst. */
    burstRate?: LoadFigures[];
  };
  static?: LoadFigures[];
  mixed?: unknown;
  /** When each section was last measured, and how busy the machine was then (1-minute load average). */
  measured?: Record<string, { at: string; loadAverage: number }>;
};

export type BudgetResult = {
  budget: string;
  measured: string;
  pass: boolean;
};

const KB = 1024;

/** The budgets of docs/decisions/060-benchmarks-and-budgets.md, checked against the sections that were measured. */
export function checkBudgets(r: BenchResults): BudgetResult[] {
  const out: BudgetResult[] = [];
  const add = (budget: string, measured: string, pass: boolean) => out.push({ budget, measured, pass });

  if (r.js) {
    for (const page of r.js) {
      if (page.failedScripts?.length) add(`${page.page}: every script loads`, page.failedScripts.join(', '), false);
    }
    for (const name of ['store front', 'shop']) {
      const page = r.js.find((p) => p.page === name);
      if (page)
        add(
          `${name}: JS ≤ 5 KB gzip (cart count + build poller only)`,
          `${(page.total.gzip / KB).toFixed(1)} KB`,
          page.total.gzip <= 5 * KB,
        );
    }
    const checkout = r.js.find((p) => p.page === 'checkout');
    // docs/decisions/195-lighter-checkout.md: what a shopper's checkout loads before using the form.
    if (checkout)
      add(
        'checkout: JS ≤ 110 KB gzip, React included',
        `${(checkout.total.gzip / KB).toFixed(1)} KB`,
        checkout.total.gzip <= 110 * KB,
      );
    for (const name of ['product', 'bundle']) {
      const page = r.js.find((p) => p.page === name);
      if (!page) continue;
      add(
        `${name}: JS ≤ 12 KB gzip (no framework)`,
        `${(page.total.gzip / KB).toFixed(1)} KB`,
        page.total.gzip <= 12 * KB,
      );
      add(
        `${name}: no script blocks first paint`,
        page.blockingScripts.length ? page.blockingScripts.join(', ') : 'none',
        page.blockingScripts.length === 0,
      );
    }
  }
  if (r.lighthouse) {
    for (const lh of r.lighthouse) {
      if (lh.page === 'cart') continue; // measured and shown, but the budgets cover only the catalog pages and checkout
      if (lh.page === 'checkout') {
        // docs/decisions/195-lighter-checkout.md: mobile only, the harder of the two presets.
        if (lh.preset === 'mobile') add('Lighthouse mobile checkout ≥ 95', String(lh.score), lh.score >= 95);
        continue;
      }
      const min = lh.preset === 'mobile' ? 98 : 100;
      add(`Lighthouse ${lh.preset} ${lh.page} ≥ ${min}`, String(lh.score), lh.score >= min);
      add(`Lighthouse ${lh.preset} ${lh.page} CLS 0`, String(lh.cls), lh.cls === 0);
      if (lh.preset === 'mobile') add(`Lighthouse mobile ${lh.page} TBT ≤ 50 ms`, `${lh.tbtMs} ms`, lh.tbtMs <= 50);
    }
  }
  const big = r.build?.find((b) => b.catalog !== 'demo');
  if (big) {
    add(`build ${big.catalog} ≥ 400 pages/s`, `${big.pagesPerSecond} pages/s`, big.pagesPerSecond >= 400);
    add(`build ${big.catalog} peak memory < 2 GiB`, `${big.peakMemoryMiB} MiB`, big.peakMemoryMiB < 2048);
  }
  for (const fixed of r.api?.fixedRate ?? []) {
    // A run that could not keep the offered rate, or answered errors, misses the budget too.
    const kept = fixed.requestsPerSecond >= (fixed.offeredRate ?? 0) * 0.95 && fixed.non2xx === 0 && fixed.errors === 0;
    add(
      `${fixed.name} p99 ≤ 20 ms at ${fixed.offeredRate} req/s (PostgreSQL)`,
      `${fixed.p99Ms} ms at ${fixed.requestsPerSecond} req/s${fixed.non2xx ? `, ${fixed.non2xx} non-2xx` : ''}`,
      kept && fixed.p99Ms <= 20,
    );
  }
  // A filtered listing of the big catalog answers within the API's p99 (docs/decisions/192-listing-facets.md).
  const pages = r.search?.listings?.find((l) => l.engine === 'PostgreSQL')?.queries.filter((l) => !l.background);
  for (const listing of pages ?? []) {
    add(
      `listing of ${r.search?.products} products, ${listing.query}: p99 ≤ 20 ms (PostgreSQL)`,
      `${listing.p99Ms} ms`,
      listing.p99Ms <= 20,
    );
  }
  const storeFront = r.api?.postgres?.find((f) => f.name.startsWith('GET store_front'));
  if (storeFront?.ofCeiling !== undefined) {
    add(
      'GET store_front/{slug} ≥ 50% of bare node:http (PostgreSQL)',
      `${Math.round(storeFront.ofCeiling * 100)}%`,
      storeFront.ofCeiling >= 0.5,
    );
  }
  const ours = r.static?.[0];
  if (ours?.ofCeiling !== undefined)
    add('static product page ≥ 50% of nginx', `${Math.round(ours.ofCeiling * 100)}%`, ours.ofCeiling >= 0.5);
  return out;
}
