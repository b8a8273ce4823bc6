import type { BenchResults, BudgetResult } from './budgets.ts';
import type { MachineInfo } from './machine.ts';
import { scaleAndContentionTables } from './scale-report.ts';

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
/** "34.6 (5.2)": CPU seconds of a build's process tree, the kernel's part in brackets. */
const cpuCell = (b: { cpuSeconds?: number; systemCpuSeconds?: number }) =>
  b.cpuSeconds === undefined
    ? ''
    : `${b.cpuSeconds}${b.systemCpuSeconds === undefined ? '' : ` (${b.systemCpuSeconds})`}`;

function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(cells[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join(
    '\n',
  );
}

/** The results as Markdown tables: printed by the bench and pasted into docs/performance.md. */
export function renderReport(machine: MachineInfo, r: BenchResults, budgets: BudgetResult[]): string {
  const parts: string[] = [
    `Machine: ${machine.cpus} CPUs (${machine.model}), ${machine.memoryGiB} GiB, Node ${machine.node}, load average at start ${machine.loadAverage.join(' ')}, ${machine.date}`,
  ];
  if (r.measured) {
    parts.push(
      'Sections measured: ' +
        Object.entries(r.measured)
          .map(
            ([name, m]) =>
              `${name} ${m.at.slice(0, 16).replace('T', ' ')} UTC (load ${m.loadAverage}${m.machine ? `, ${m.machine}` : ''})`,
          )
          .join('; '),
    );
  }
  if (r.js) {
    parts.push(
      '### JavaScript per page type (KB; gzip -9 / brotli 11 of the decoded bodies Chromium loaded)\n\n' +
        table(
          ['page', 'files', 'gzip total', 'framework', 'libs', 'ours', 'brotli total', 'framework', 'libs', 'ours'],
          r.js.map((p) => [
            p.page,
            `${p.files.length}${p.inline.raw ? ' + inline' : ''}`,
            kb(p.total.gzip),
            kb(p.gzipByOwner.framework),
            kb(p.gzipByOwner.libs),
            kb(p.gzipByOwner.ours),
            kb(p.total.brotli),
            kb(p.brotliByOwner.framework),
            kb(p.brotliByOwner.libs),
            kb(p.brotliByOwner.ours),
          ]),
        ),
    );
  }
  if (r.lighthouse) {
    parts.push(
      `### Lighthouse (median of ${r.lighthouse[0]?.runs ?? 0} runs)\n\n` +
        (r.lighthouseCpu ? `${r.lighthouseCpu}.\n\n` : '') +
        table(
          ['page', 'preset', 'score', 'runs', 'LCP ms', 'TBT ms', 'CLS', 'total KB'],
          r.lighthouse.map((l) => [
            l.page,
            l.preset,
            l.score,
            l.scores.join(' '),
            l.lcpMs,
            l.tbtMs,
            l.cls,
            kb(l.totalBytes),
          ]),
        ),
    );
  }
  if (r.build) {
    const rows = r.build.flatMap((b) => [
      [
        b.catalog,
        b.pages,
        b.wallSeconds,
        b.pagesPerSecond,
        b.plainAstro ? `${(b.pagesPerSecond / b.plainAstro.pagesPerSecond).toFixed(2)}×` : '',
        cpuCell(b),
        b.peakMemoryMiB,
        b.astroBuilt ? 'ran' : 'up to date, skipped',
      ],
      ...(b.incremental
        ? [
            [
              `incremental after one price change (${b.incremental.pages - b.incremental.reused} rendered, ${b.incremental.reused} linked)`,
              b.incremental.pages,
              b.incremental.wallSeconds,
              '',
              `${Math.round((b.incremental.wallSeconds / b.wallSeconds) * 100)} % of the full build`,
              b.incremental.cpuSeconds ?? '',
              '',
              'up to date, skipped',
            ],
            ...(b.incremental.publishSeconds !== undefined
              ? [
                  [
                    'the same, published by a running storefront (Publish to live)',
                    b.incremental.pages,
                    b.incremental.publishSeconds,
                    '',
                    `${Math.round((b.incremental.publishSeconds / b.wallSeconds) * 100)} % of the full build`,
                    '',
                    '',
                    'up to date, skipped',
                  ],
                ]
              : []),
          ]
        : []),
      ...(b.plainAstro
        ? [
            [
              `plain Astro, trivial pages, ${b.plainAstro.builds ?? 1} ${(b.plainAstro.builds ?? 1) === 1 ? 'build' : 'builds at once'} (reference)`,
              b.plainAstro.pages,
              b.plainAstro.wallSeconds,
              b.plainAstro.pagesPerSecond,
              '1×',
              cpuCell(b.plainAstro),
              '',
              'ran',
            ],
          ]
        : []),
    ]);
    parts.push(
      '### Build (`npm run build`, wall clock; peak = highest RSS sum of the process tree; reference: `astro build`s of as many trivial pages between them, at once, same run; ADR 228)\n\n' +
        table(
          ['catalog', 'pages', 'seconds', 'pages/s', 'of plain Astro', 'CPU s (system)', 'peak MiB', 'astro build'],
          rows,
        ),
    );
  }
  if (r.api) {
    const rows = [
      ...(r.api.ceiling ? [r.api.ceiling] : []),
      ...(r.api.pgReference
        ? [
            r.api.pgReference.ceiling,
            r.api.pgReference.paced,
            ...(r.api.pgReference.pacedWrite ? [r.api.pgReference.pacedWrite] : []),
          ]
        : []),
      ...(r.api.pglite ?? []),
      ...(r.api.postgres ?? []),
      ...(r.api.fixedRate ?? []),
      ...(r.api.burstRate ?? []),
    ];
    parts.push(
      '### API on loopback (autocannon, 10 connections; "paced" rows: evenly paced open-loop load at the offered rate, ADR 060, a fixed fraction of the ceiling measured beside them, ADR 210)\n\n' +
        (r.postgresLoadCpu ? `PostgreSQL rows and the contention section: ${r.postgresLoadCpu}.\n\n` : '') +
        table(
          ['call', 'server', 'req/s', 'of ceiling', 'p50 ms', 'p99 ms', 'non-2xx', 'server CPU µs/req'],
          rows.map((f) => [
            f.name,
            f.offeredRate ? `${f.target} @ ${f.offeredRate}/s` : f.target,
            f.requestsPerSecond,
            f.ofCeiling !== undefined ? `${Math.round(f.ofCeiling * 100)}%` : '',
            f.p50Ms,
            f.p99Ms,
            f.non2xx,
            f.cpuMicrosPerRequest ?? '',
          ]),
        ),
    );
  }
  if (r.static) {
    parts.push(
      '### Static product page (brotli, 10 connections, the servers taking turns in 3 rounds; ADR 215)\n\n' +
        table(
          ['server', 'req/s', 'of nginx', 'p50 ms', 'p99 ms', 'server CPU µs/req'],
          r.static.map((f) => [
            f.target,
            f.requestsPerSecond,
            f.ofCeiling !== undefined ? `${Math.round(f.ofCeiling * 100)}%` : '',
            f.p50Ms,
            f.p99Ms,
            f.cpuMicrosPerRequest ?? '',
          ]),
        ),
    );
  }
  if (r.search) {
    const f = r.search;
    parts.push(
      `### Search (docs/decisions/191-search-engine.md; median of 15 queries, ${f.products}-product catalog as bench10k)\n\n` +
        table(
          ['engine', 'store', 'query', 'found', 'median ms'],
          [
            ...f.server.flatMap((s) => s.queries.map((q) => [s.engine, q.store, q.query, q.found, q.medianMs])),
            ...f.client.indexes.flatMap((i) =>
              i.queries.map((q) => [
                `${f.client.engine} (${(i.gzipBytes / 1024).toFixed(1)} KB index)`,
                q.store,
                q.query,
                q.found,
                q.medianMs,
              ]),
            ),
          ],
        ),
    );
    if (f.listings?.length)
      parts.push(
        `### Listing pages with facets (docs/decisions/192-listing-facets.md; ${f.products} products, 48 per page)\n\n` +
          (f.postgresCpu ? `PostgreSQL: ${f.postgresCpu}.\n\n` : '') +
          table(
            ['engine', 'listing', 'found', 'median ms', 'p99 ms'],
            f.listings.flatMap((l) => l.queries.map((q) => [l.engine, q.query, q.found, q.medianMs, q.p99Ms])),
          ),
      );
  }
  if (r.mixed !== undefined && r.mixed !== null) {
    const m = r.mixed as Record<string, unknown>;
    const keys = [
      'rate',
      'connections',
      'durationSeconds',
      'requests',
      'throughput',
      'p50Ms',
      'p99Ms',
      'non2xx',
      'errors',
      'timeouts',
    ].filter((k) => k in m);
    parts.push(
      `### Mixed shopper load (scripts/load/mixed-load.ts, npm start on PostgreSQL${typeof m.mix === 'string' ? `: ${m.mix}` : ''})\n\n` +
        table(keys, [keys.map((k) => String(m[k]))]),
    );
  }
  parts.push(...scaleAndContentionTables(r, table));
  if (budgets.length) {
    parts.push(
      '### Budgets\n\n' +
        table(
          ['budget', 'measured', 'result'],
          budgets.map((b) => [b.budget, b.measured, b.pass ? 'pass' : 'FAIL']),
        ),
    );
  }
  return parts.join('\n\n');
}
