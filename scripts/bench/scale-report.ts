import type { BenchResults } from './budgets.ts';

type Table = (headers: string[], rows: (string | number)[][]) => string;

/** The `scale` and `contention` sections as Markdown tables (docs/decisions/214-scale-and-contention.md). */
export function scaleAndContentionTables(r: BenchResults, table: Table): string[] {
  const parts: string[] = [];
  const s = r.scale;
  if (s) {
    parts.push(
      `### Scale: ${s.products.toLocaleString('en-US')} products against 10,000 in the same run (${s.minutes} min)\n\n` +
        table(
          ['catalog', 'import s', 'import peak MiB', 'pages', 'build s', 'pages/s', 'CPU s', 'build peak MiB'],
          [s.reference, s.big].map((b) => [
            b.catalog,
            b.importSeconds ?? '',
            b.importPeakMiB ?? '',
            b.pages,
            b.wallSeconds,
            b.pagesPerSecond,
            b.cpuSeconds ?? '',
            b.peakMemoryMiB,
          ]),
        ) +
        `\n\nListing index: ${s.index.entries} entries, read in ${s.index.readMedianMs} ms (p99 ${s.index.readP99Ms} ms), event loop blocked up to ${s.index.blockMaxMs} ms.\n\n` +
        table(
          ['PGlite, 100,000 products', 'found', 'median ms', 'p99 ms'],
          [
            ...s.listings.map((l) => [`listing: ${l.query}`, l.found, l.medianMs, l.p99Ms]),
            ...s.search.map((q) => [`search: ${q.query}`, q.found, q.medianMs, '']),
          ],
        ),
    );
  }
  const c = r.contention;
  if (c) {
    parts.push(
      `### Orders under contention (PostgreSQL; ${c.shoppers} shoppers, ${c.concurrency} at once, 3 variants × ${c.stockEach} units, every ${c.declinedEvery}th card declined)\n\n` +
        table(
          [
            'orders',
            'seconds',
            'orders/s',
            'of hot-row takes',
            'of ceiling',
            'order p50 ms',
            'order p99 ms',
            'outcomes',
            'oversold',
            'lost payments',
          ],
          [
            [
              c.outcomes.ordered,
              c.wallSeconds,
              c.ordersPerSecond,
              c.ofHotRowTakes !== undefined
                ? `${(c.ofHotRowTakes * 100).toFixed(2)}% of ${c.hotRowTakesPerSecond}`
                : '',
              c.ofCeiling !== undefined ? `${(c.ofCeiling * 100).toFixed(2)}% of ${c.ceilingRequestsPerSecond}` : '',
              c.orderP50Ms,
              c.orderP99Ms,
              Object.entries(c.outcomes)
                .map(([k, v]) => `${k} ${v}`)
                .join(', '),
              c.oversold,
              c.lostPayments,
            ],
          ],
        ),
    );
  }
  return parts;
}
