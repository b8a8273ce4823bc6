/**
 * `npm run bench`: the figures of docs/decisions/060-benchmarks-and-budgets.md — JS per page type, Lighthouse, build, API and static
 * serving — printed as tables and written to bench/results.json. `-- --check` exits 1 when a budget
 * is missed; `-- --only js,lighthouse` runs some sections (build, js, lighthouse, api, static, mixed, search).
 * Other options: `--runs N` (Lighthouse runs, default 3), `--seconds N` (per load run, default 5),
 * `--mixed-seconds N` (the mixed shopper load on PostgreSQL, default 60), `--products N` (generated
 * catalog, default 10000). Uses ports 4470-4489 and .data-bench* folders.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { astroBuildIsStale, astroEntry } from '../src/front/astro-build.ts';
import { bareTarget, load, apiTargets, pacedTargets, type LoadFigures } from './bench/api-bench.ts';
import { BENCH, BENCH_CART_TOKEN_SECRET } from './bench/bench-env.ts';
import { checkBudgets, type BenchResults } from './bench/budgets.ts';
import { buildDemo, buildGenerated } from './bench/build-bench.ts';
import { measureJs } from './bench/js-weight.ts';
import { CHROMIUM_PATH } from './chromium.ts';
import { pacedLoadInChild } from './bench/paced-load.ts';
import { runLighthouse } from './bench/lighthouse-runs.ts';
import { measureSearch, searchLines } from './bench/search-bench.ts';
import { machineInfo } from './bench/machine.ts';
import { renderReport } from './bench/report.ts';
import { pagePaths, storeFixtures } from './bench/shopper-fixtures.ts';
import { startScript, startStorefrontProcess, type RunningServer } from './bench/storefront-process.ts';
import { NGINX, staticRun } from './bench/static-bench.ts';
import { ensureDebianBinary } from './debian-package.ts';

const SECTIONS = ['build', 'js', 'lighthouse', 'api', 'static', 'mixed', 'search'] as const;
type Section = (typeof SECTIONS)[number];

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    only: { type: 'string' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    'mixed-seconds': { type: 'string', default: '60' },
    products: { type: 'string', default: '10000' },
  },
});
const only = values.only ? values.only.split(',').map((s) => s.trim()) : [...SECTIONS];
for (const s of only)
  if (!SECTIONS.includes(s as Section)) throw new Error(`Unknown section "${s}"; choose from ${SECTIONS.join(', ')}`);
const want = (s: Section) => only.includes(s);
// A fresh machine has neither: the browser sections need Chromium, the static one nginx.
if (want('js') || want('lighthouse')) ensureDebianBinary(CHROMIUM_PATH, 'chromium', 'CHROMIUM_PATH');
if (want('static')) ensureDebianBinary(NGINX, 'nginx', 'NGINX_PATH');
const seconds = Number(values.seconds);
const mixedSeconds = Number(values['mixed-seconds']);
const log = (line: string) => console.log(line);
const started = performance.now();
const machine = machineInfo();
const results: BenchResults = {};
const failures: string[] = [];

/**
 * Whether the demo snapshot can be served as it is. Its pages name hashed assets of the Astro build
 * they were rendered with: a stale build (rebuilt on start) or one rebuilt since means a new snapshot.
 */
async function demoSnapshotIsCurrent(): Promise<boolean> {
  const current = path.join(BENCH.demoBuildsDir, 'current');
  if (!existsSync(current) || (await astroBuildIsStale(BENCH.distDir))) return false;
  const [snapshot, entry] = await Promise.all([stat(await realpath(current)), stat(astroEntry(BENCH.distDir))]);
  return snapshot.mtimeMs >= entry.mtimeMs;
}

/** Runs a section; a crash is reported and counted as a missed budget, and the other sections still run. */
async function section(name: string, run: () => Promise<void>): Promise<void> {
  const t = performance.now();
  log(`\n== ${name}`);
  try {
    await run();
  } catch (error) {
    failures.push(name);
    console.error(`Section ${name} failed:`, error);
  }
  log(`   (${((performance.now() - t) / 1000).toFixed(0)} s)`);
}

/** `npm start` on a PostgreSQL database made for this run and dropped after it. */
async function withPostgresStorefront(run: (server: RunningServer) => Promise<void>): Promise<void> {
  const database = `bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: BENCH.postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(BENCH.postgresAdminUrl);
  url.pathname = `/${database}`;
  let server: RunningServer | null = null;
  try {
    server = await startStorefrontProcess({
      port: BENCH.port.storefrontPg,
      env: { DATABASE_URL: url.href, BUILDS_DIR: BENCH.pgBuildsDir, SNAPSHOT_ON_START: '0' },
    });
    await run(server);
  } finally {
    await server?.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

if (want('search')) {
  await section('search (pg_trgm against a client-side index, docs/decisions/191-search-engine.md)', async () => {
    results.search = await measureSearch(Number(values.products), log);
    for (const line of searchLines(results.search)) log(line);
  });
}

if (want('build')) {
  await section('build', async () => {
    results.build = [await buildDemo(log)];
    results.build.push(await buildGenerated(Number(values.products), log));
  });
}

const needsDemoServer = want('js') || want('lighthouse') || want('api') || want('static');
let demo = null as RunningServer | null; // set inside a callback, which narrowing cannot see
if (needsDemoServer) {
  await section('start the storefront (PGlite, demo store)', async () => {
    const snapshotIsCurrent = await demoSnapshotIsCurrent();
    demo = await startStorefrontProcess({
      port: BENCH.port.storefront,
      env: {
        DATA_DIR: BENCH.demoDataDir,
        BUILDS_DIR: BENCH.demoBuildsDir,
        SNAPSHOT_ON_START: snapshotIsCurrent ? '0' : '1',
      },
    });
    log(`   ${demo.url}`);
  });
}

if (demo) {
  const server: RunningServer = demo;
  const fixtures = await storeFixtures(server.url);
  const pages = pagePaths(fixtures);

  if (want('js')) {
    await section('js', async () => {
      results.js = await measureJs(server.url, pages, fixtures);
      for (const p of results.js)
        log(`  ${p.page}: ${(p.total.gzip / 1024).toFixed(1)} KB gzip in ${p.files.length} files`);
    });
  }
  if (want('lighthouse')) {
    await section('lighthouse', async () => {
      const lhPages = Object.fromEntries(
        ['store front', 'shop', 'product', 'cart', 'checkout'].map((name) => [name, pages[name]!]),
      );
      results.lighthouse = await runLighthouse(
        server.url,
        lhPages,
        Number(values.runs),
        `recipient-token=${fixtures.cartToken}`,
        log,
      );
    });
  }
  if (want('static')) {
    await section('static', async () => {
      results.static = await staticRun(server.url, BENCH.demoBuildsDir, pages.product!, BENCH.port, seconds, log);
    });
  }
  if (want('api')) {
    await section('api (PGlite)', async () => {
      const targets = await apiTargets(server.url, fixtures);
      const figures: LoadFigures[] = [];
      for (const target of Object.values(targets)) {
        await load(server.url, target, 1, { label: 'PGlite' });
        const f = await load(server.url, target, seconds, { label: 'PGlite' });
        log(
          `  PGlite ${f.name}: ${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms${f.non2xx ? `, ${f.non2xx} non-2xx` : ''}`,
        );
        figures.push(f);
      }
      results.api = { ...results.api, pglite: figures };
    });
  }
  await server.stop();
}

if (want('api')) {
  await section('api ceiling (bare node:http)', async () => {
    const bare = await startScript(
      'scripts/bench/bare-http-server.ts',
      BENCH.port.bare,
      `http://127.0.0.1:${BENCH.port.bare}/`,
    );
    try {
      await load(bare.url, bareTarget, 1, { label: 'node:http' });
      const ceiling = await load(bare.url, bareTarget, seconds, { label: 'node:http' });
      log(`  ceiling: ${ceiling.requestsPerSecond} req/s, p99 ${ceiling.p99Ms} ms`);
      results.api = { ...results.api, ceiling };
      for (const f of results.api.pglite ?? [])
        f.ofCeiling = Math.round((f.requestsPerSecond / ceiling.requestsPerSecond) * 1000) / 1000;
    } finally {
      await bare.stop();
    }
  });
  await section('api (PostgreSQL)', () =>
    withPostgresStorefront(async (server) => {
      const fixtures = await storeFixtures(server.url);
      const targets = await apiTargets(server.url, fixtures);
      const figures: LoadFigures[] = [];
      for (const target of Object.values(targets)) {
        await load(server.url, target, 1, { label: 'PostgreSQL' });
        const f = await load(server.url, target, seconds, { label: 'PostgreSQL' });
        if (results.api?.ceiling)
          f.ofCeiling = Math.round((f.requestsPerSecond / results.api.ceiling.requestsPerSecond) * 1000) / 1000;
        log(
          `  PostgreSQL ${f.name}: ${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms${f.non2xx ? `, ${f.non2xx} non-2xx` : ''}`,
        );
        figures.push(f);
      }
      // The budget's "p99 at 1,000 requests per second": evenly paced (the budget is checked on these),
      // and autocannon's overallRate beside them, which sends each second's share in a burst (ADR 060).
      const fixedRate: LoadFigures[] = [];
      const paced = pacedTargets(fixtures);
      for (const target of [paced.getCart, paced.addLine]) {
        const f = await pacedLoadInChild(server.url, target, {
          rate: 1000,
          seconds: Math.max(seconds, 10),
          warmupSeconds: 1,
          label: 'PostgreSQL, paced',
        });
        log(
          `  PostgreSQL ${f.name} paced at 1000/s: ${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms`,
        );
        fixedRate.push(f);
      }
      const burstRate: LoadFigures[] = [];
      for (const target of [targets.getCart, targets.addLine]) {
        const f = await load(server.url, target, Math.max(seconds, 10), {
          label: 'PostgreSQL, autocannon overallRate',
          rate: 1000,
          connections: 20,
        });
        log(
          `  PostgreSQL ${f.name} autocannon overallRate 1000: ${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms`,
        );
        burstRate.push(f);
      }
      results.api = { ...results.api, postgres: figures, fixedRate, burstRate };
    }),
  );
}

if (want('mixed')) {
  await section('mixed load', async () => {
    const file = path.resolve('scripts/load/mixed-load.ts');
    // Hook for the reliability helper's load mix; skipped until that module exists.
    if (!existsSync(file)) {
      log('  scripts/load/mixed-load.ts is not there yet: skipped');
      return;
    }
    const { runMixedLoad } = (await import(file)) as {
      runMixedLoad: (o: {
        baseUrl: string;
        durationSeconds: number;
        rate: number;
        cartTokenSecret: string;
      }) => Promise<unknown>;
    };
    // docs/reliability.md: `npm start` on PostgreSQL, a fixed rate for 60 s (`--mixed-seconds N` to change).
    await withPostgresStorefront(async (server) => {
      results.mixed = await runMixedLoad({
        baseUrl: server.url,
        durationSeconds: mixedSeconds,
        rate: 200,
        cartTokenSecret: BENCH_CART_TOKEN_SECRET,
      });
    });
  });
}

// Sections not run this time keep their last figures, so bench/results.json always has a full table.
const resultsFile = path.resolve('bench/results.json');
let previous: { results?: BenchResults } = {};
try {
  previous = JSON.parse(await readFile(resultsFile, 'utf8')) as { results?: BenchResults };
} catch {
  // First run.
}
const measured = { ...previous.results?.measured };
for (const name of only)
  if (name in results) measured[name] = { at: machine.date, loadAverage: machine.loadAverage[0] ?? 0 };
const merged: BenchResults = { ...previous.results, ...results, measured };
const budgets = checkBudgets(results);
const report = renderReport(machine, merged, checkBudgets(merged));
await mkdir(path.dirname(resultsFile), { recursive: true });
await writeFile(
  resultsFile,
  JSON.stringify(
    {
      machine,
      sections: only,
      durationSeconds: Math.round((performance.now() - started) / 1000),
      results: merged,
      budgets: checkBudgets(merged),
    },
    null,
    2,
  ) + '\n',
);
// The same tables as Markdown, for docs/performance.md.
await writeFile(path.resolve('bench/results.md'), `${report}\n`);
log(`\n${report}\n`);
log(`Wrote ${path.relative(process.cwd(), resultsFile)} in ${((performance.now() - started) / 1000).toFixed(0)} s.`);

if (values.check) {
  const missed = budgets.filter((b) => !b.pass);
  for (const b of missed) console.error(`Budget missed: ${b.budget} — ${b.measured}`);
  for (const f of failures) console.error(`Section failed: ${f}`);
  if (missed.length || failures.length) process.exit(1);
  log(`All ${budgets.length} budgets of this run pass.`);
}
process.exit(failures.length ? 1 : 0);
