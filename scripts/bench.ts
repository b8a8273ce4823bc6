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
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { astroBuildIsStale, astroEntry } from '../src/front/astro-build.ts';
import { bareTarget, load, apiTargets, pacedTargets, type LoadFigures } from './bench/api-bench.ts';
import { BENCH, BENCH_CART_TOKEN_SECRET } from './bench/bench-env.ts';
import { checkBudgets, type BenchResults } from './bench/budgets.ts';
import { PACED_FRACTION_OF_PG_REFERENCE } from './bench/reference-budgets.ts';
import { buildDemo, buildGenerated, incrementalBuild } from './bench/build-bench.ts';
import { plainAstroBuild } from './bench/plain-astro-build.ts';
import { emptyTrash } from './bench/settle-disk.ts';
import { measureJs } from './bench/js-weight.ts';
import { CHROMIUM_PATH } from './chromium.ts';
import { pacedLoadInChild } from './bench/paced-load.ts';
import { measureHotRowReference, measurePgReference } from './bench/pg-reference.ts';
import { runLighthouse } from './bench/lighthouse-runs.ts';
import { joinBackends, withCpuGroup } from './bench/cpu-group.ts';
import { treePids } from './bench/processes.ts';
import { measureSearch, searchLines } from './bench/search-bench.ts';
import { CONTENTION_DEFAULTS, measureContention } from './bench/contention-bench.ts';
import { measureScale } from './bench/scale-bench.ts';
import { machineInfo, machineLabel } from './bench/machine.ts';
import { renderReport } from './bench/report.ts';
import { pagePaths, storeFixtures } from './bench/shopper-fixtures.ts';
import { startScript, startStorefrontProcess, type RunningServer } from './bench/storefront-process.ts';
import { NGINX, NGINX_BROTLI_STATIC, staticRun } from './bench/static-bench.ts';
import { ensureDebianBinary } from './debian-package.ts';

const SECTIONS = ['build', 'js', 'lighthouse', 'api', 'static', 'mixed', 'search', 'contention', 'scale'] as const;
/** `scale` takes longer than all the others together (docs/decisions/214-scale-and-contention.md): only when asked for. */
const DEFAULT_SECTIONS = SECTIONS.filter((s) => s !== 'scale');
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
const only = values.only ? values.only.split(',').map((s) => s.trim()) : [...DEFAULT_SECTIONS];
for (const s of only)
  if (!SECTIONS.includes(s as Section)) throw new Error(`Unknown section "${s}"; choose from ${SECTIONS.join(', ')}`);
const want = (s: Section) => only.includes(s);
// A fresh machine has neither: the browser sections need Chromium, the static one nginx.
if (want('js') || want('lighthouse')) ensureDebianBinary(CHROMIUM_PATH, 'chromium', 'CHROMIUM_PATH');
if (want('static')) {
  ensureDebianBinary(NGINX, 'nginx', 'NGINX_PATH');
  ensureDebianBinary(NGINX_BROTLI_STATIC, 'libnginx-mod-http-brotli-static', 'NGINX_BROTLI_STATIC_PATH');
}
const seconds = Number(values.seconds);
const mixedSeconds = Number(values['mixed-seconds']);
const log = (line: string) => console.log(line);
const started = performance.now();
const machine = machineInfo();
const results: BenchResults = {};
const failures: string[] = [];
/** The 1-minute load average when each section began: printed beside its ratios. */
const sectionLoad: Partial<Record<Section, number>> = {};

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

/**
 * Runs a section; a crash is reported and counted as a missed budget, and the other sections still run.
 * `of` names the results' section whose load average this part's start sets.
 */
async function section(name: string, run: () => Promise<void>, of?: Section): Promise<void> {
  const t = performance.now();
  const load = Math.round(os.loadavg()[0]! * 100) / 100;
  if (of) sectionLoad[of] = load;
  log(`\n== ${name} (load average ${load})`);
  try {
    await run();
  } catch (error) {
    failures.push(name);
    console.error(`Section ${name} failed:`, error);
  }
  log(`   (${((performance.now() - t) / 1000).toFixed(0)} s)`);
}

/**
 * `npm start` on a PostgreSQL database made for this run and dropped after it. With `cpuGroup`, the
 * storefront, this process (the load and the references it starts) and the database's backends run in
 * a CPU group (docs/decisions/229-measured-processes-in-a-cpu-group.md).
 */
async function withPostgresStorefront(
  run: (server: RunningServer, databaseUrl: string) => Promise<void>,
  { cpuGroup = false } = {},
): Promise<void> {
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
    const started = server;
    if (!cpuGroup) await run(started, url.href);
    else {
      const { cpu } = await withCpuGroup(
        [process.pid, ...(started.child.pid ? treePids(started.child.pid) : [])],
        async (add, where) => {
          log(`  the storefront, its PostgreSQL backends and the load ${where}`);
          const stopJoining = await joinBackends(admin, database, add);
          try {
            await run(started, url.href);
          } finally {
            stopJoining();
          }
        },
      );
      results.postgresLoadCpu = `The storefront, its PostgreSQL backends and the load ${cpu}`;
    }
  } finally {
    await server?.stop();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

if (want('search')) {
  await section(
    'search (pg_trgm against a client-side index, docs/decisions/191-search-engine.md)',
    async () => {
      results.search = await measureSearch(Number(values.products), log);
      for (const line of searchLines(results.search)) log(line);
    },
    'search',
  );
}

if (want('build')) {
  await section(
    'build',
    async () => {
      results.build = [await buildDemo(log)];
      const big = await buildGenerated(Number(values.products), log);
      // One price change published on top of it: the incremental figure beside the full one (ADR 211).
      big.incremental = await incrementalBuild(log);
      // The budget's reference, right after it on the same machine: Astro alone, as many pages.
      big.plainAstro = await plainAstroBuild(big.pages, log);
      results.build.push(big);
      await emptyTrash();
    },
    'build',
  );
}

if (want('scale')) {
  await section(
    'scale (100,000 products: import, build against 10,000, listings and search; docs/decisions/214-scale-and-contention.md)',
    async () => {
      results.scale = await measureScale(log);
      await emptyTrash();
    },
    'scale',
  );
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
    await section(
      'js',
      async () => {
        results.js = await measureJs(server.url, pages, fixtures);
        for (const p of results.js)
          log(`  ${p.page}: ${(p.total.gzip / 1024).toFixed(1)} KB gzip in ${p.files.length} files`);
      },
      'js',
    );
  }
  if (want('lighthouse')) {
    await section(
      'lighthouse',
      async () => {
        const lhPages = Object.fromEntries(
          ['store front', 'shop', 'product', 'cart', 'checkout'].map((name) => [name, pages[name]!]),
        );
        // docs/decisions/229-measured-processes-in-a-cpu-group.md: the pages' time, not their neighbours'.
        const { result, cpu } = await withCpuGroup(
          [process.pid, ...(server.child.pid ? treePids(server.child.pid) : [])],
          (_, where) => {
            log(`   Chromium and the storefront ${where}`);
            return runLighthouse(
              server.url,
              lhPages,
              Number(values.runs),
              `recipient-token=${fixtures.cartToken}`,
              log,
            );
          },
        );
        results.lighthouse = result;
        results.lighthouseCpu = `Chromium and the storefront ${cpu}`;
      },
      'lighthouse',
    );
  }
  if (want('static')) {
    await section(
      'static',
      async () => {
        results.static = await staticRun(server, BENCH.demoBuildsDir, pages.product!, BENCH.port, seconds, log);
      },
      'static',
    );
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

/** The bare `node:http` ceiling (scripts/bench/bare-http-server.ts), measured in its own process. */
async function measureCeiling(): Promise<LoadFigures> {
  const bare = await startScript(
    'scripts/bench/bare-http-server.ts',
    BENCH.port.bare,
    `http://127.0.0.1:${BENCH.port.bare}/`,
  );
  try {
    await load(bare.url, bareTarget, 1, { label: 'node:http' });
    const ceiling = await load(bare.url, bareTarget, seconds, { label: 'node:http', serverPid: bare.child.pid });
    log(`  ceiling: ${ceiling.requestsPerSecond} req/s, p99 ${ceiling.p99Ms} ms`);
    return ceiling;
  } finally {
    await bare.stop();
  }
}

const ofCeiling = (f: LoadFigures, ceiling: LoadFigures) =>
  Math.round((f.requestsPerSecond / ceiling.requestsPerSecond) * 1000) / 1000;

if (want('api')) {
  await section(
    'api (PostgreSQL)',
    () =>
      withPostgresStorefront(
        async (server, databaseUrl) => {
          const fixtures = await storeFixtures(server.url);
          const targets = await apiTargets(server.url, fixtures);
          const figures: LoadFigures[] = [];
          for (const target of Object.values(targets)) {
            await load(server.url, target, 1, { label: 'PostgreSQL' });
            const f = await load(server.url, target, seconds, { label: 'PostgreSQL', serverPid: server.child.pid });
            log(
              `  PostgreSQL ${f.name}: ${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms${f.non2xx ? `, ${f.non2xx} non-2xx` : ''}`,
            );
            figures.push(f);
          }
          // The ceiling right beside the runs it is the reference of: the paced rate is a fixed fraction of
          // it, so a slower or busier machine is offered proportionally less (docs/decisions/210-budgets-as-ratios-in-one-run.md).
          const ceiling = await measureCeiling();
          for (const f of [...figures, ...(results.api?.pglite ?? [])]) f.ofCeiling = ofCeiling(f, ceiling);
          // The paced rate comes from a reference that waits on PostgreSQL as the API does (ADR 215).
          const pgReference = await measurePgReference(
            databaseUrl,
            fixtures.slug,
            PACED_FRACTION_OF_PG_REFERENCE,
            seconds,
          );
          log(
            `  reference node:http + 1 PostgreSQL read: ${pgReference.ceiling.requestsPerSecond} req/s; paced at ${pgReference.paced.offeredRate}/s p99 ${pgReference.paced.p99Ms} ms, committed inserts p99 ${pgReference.pacedWrite?.p99Ms} ms`,
          );
          const rate = pgReference.paced.offeredRate!;
          // The budget's p99: evenly paced (the budget is checked on these), and autocannon's overallRate
          // beside them, which sends each second's share in a burst (ADR 060).
          const fixedRate: LoadFigures[] = [];
          const paced = pacedTargets(fixtures);
          for (const target of [paced.getCart, paced.addLine]) {
            const f = await pacedLoadInChild(server.url, target, {
              rate,
              seconds: Math.max(seconds, 10),
              warmupSeconds: 1,
              label: 'PostgreSQL, paced',
            });
            f.ofCeiling = ofCeiling(f, ceiling);
            log(
              `  PostgreSQL ${f.name} paced at ${rate}/s: ${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms`,
            );
            fixedRate.push(f);
          }
          const burstRate: LoadFigures[] = [];
          for (const target of [targets.getCart, targets.addLine]) {
            const f = await load(server.url, target, Math.max(seconds, 10), {
              label: 'PostgreSQL, autocannon overallRate',
              rate,
              connections: 20,
            });
            log(
              `  PostgreSQL ${f.name} autocannon overallRate ${rate}: ${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms`,
            );
            burstRate.push(f);
          }
          results.api = { ...results.api, postgres: figures, ceiling, pgReference, fixedRate, burstRate };
        },
        { cpuGroup: true },
      ),
    'api',
  );
}

if (want('contention')) {
  await section(
    'contention (orders for the same 3 variants on PostgreSQL, docs/decisions/214-scale-and-contention.md)',
    () =>
      withPostgresStorefront(
        async (server, databaseUrl) => {
          const figures = await measureContention(server.url, databaseUrl, CONTENTION_DEFAULTS, log);
          // The ceiling right after the run, printed beside it (docs/decisions/210-budgets-as-ratios-in-one-run.md).
          const ceiling = await measureCeiling();
          figures.ceilingRequestsPerSecond = ceiling.requestsPerSecond;
          figures.ofCeiling = figures.ordersPerSecond / ceiling.requestsPerSecond;
          // The budget's reference shares the orders' bottleneck: hot rows, commits, the pool (ADR 218).
          const takes = await measureHotRowReference(
            databaseUrl,
            'contention',
            CONTENTION_DEFAULTS.concurrency,
            seconds,
          );
          log(`  reference: ${takes.requestsPerSecond} takes/s from 3 hot rows, p99 ${takes.p99Ms} ms`);
          figures.hotRowTakesPerSecond = takes.requestsPerSecond;
          figures.ofHotRowTakes = figures.ordersPerSecond / takes.requestsPerSecond;
          results.contention = figures;
        },
        { cpuGroup: true },
      ),
    'contention',
  );
}

if (want('mixed')) {
  await section(
    'mixed load',
    async () => {
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
    },
    'mixed',
  );
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
  if (name in results)
    measured[name] = {
      at: machine.date,
      loadAverage: sectionLoad[name as Section] ?? machine.loadAverage[0] ?? 0,
      machine: machineLabel(machine),
    };
const merged: BenchResults = { ...previous.results, ...results, measured };
// This run's budgets, with this run's conditions beside them.
const budgets = checkBudgets({ ...results, measured });
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
