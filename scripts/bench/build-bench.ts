import { rm } from 'node:fs/promises';
import path from 'node:path';
import { BENCH, childEnv } from './bench-env.ts';
import { writeCatalogFile } from './catalog-generator.ts';
import type { PlainAstroFigures } from './plain-astro-build.ts';
import { cpuFigures, measureCommand } from './processes.ts';
import { moveAside, settleDisk } from './settle-disk.ts';
import { round } from './stats.ts';

export type BuildFigures = {
  catalog: string;
  pages: number;
  wallSeconds: number;
  pagesPerSecond: number;
  peakMemoryMiB: number;
  /** Whether this `npm run build` also ran `astro build` (it skips an up-to-date one). */
  astroBuilt: boolean;
  /** CPU seconds (user + system) of the whole process tree: steadier than wall clock on a busy machine. */
  cpuSeconds?: number;
  /** The kernel's part of `cpuSeconds` (file writes, page faults). */
  systemCpuSeconds?: number;
  /** Seconds of the import before the build (not part of the build figure). */
  importSeconds?: number;
  /** Peak memory of the import process (`npm run import`) into the already created database. */
  importPeakMiB?: number;
  /** The reference measured right after it: Astro alone building as many trivial pages (the budget's ratio). */
  plainAstro?: PlainAstroFigures;
  /** One product's price changed, then `npm run build` again: only the pages it touches are rendered (ADR 211). */
  incremental?: IncrementalFigures;
};

export type IncrementalFigures = {
  /** Wall clock of `npm run build` after the change, timed as the full build is (process start to live). */
  wallSeconds: number;
  /**
   * The editor's publish after another price change, in a running storefront (scripts/bench/publish-one-price.ts):
   * from Publish to live, without the process start an editor never waits for. The budget's figure.
   */
  publishSeconds?: number;
  cpuSeconds?: number;
  pages: number;
  /** Pages linked from the full build instead of rendered. */
  reused: number;
};

/** Pages the snapshot wrote, from the build's own summary line ("Snapshot <id>: N pages in …"). */
function pagesFrom(output: string): number {
  const m = /Snapshot \S+: (\d+) pages/.exec(output);
  if (!m) throw new Error(`Could not find the page count in the build output:\n${output.slice(-2000)}`);
  return Number(m[1]);
}

async function timedBuild(
  catalog: string,
  dataDir: string,
  buildsDir: string,
  log: (line: string) => void,
  force = false,
): Promise<BuildFigures> {
  const run = await measureCommand(
    'npm',
    ['run', 'build', ...(force ? ['--', '--force'] : [])],
    childEnv({ DATA_DIR: dataDir, BUILDS_DIR: buildsDir }),
  );
  if (run.code !== 0)
    throw new Error(`npm run build (${catalog}) exited with ${run.code}:\n${run.output.slice(-3000)}`);
  const pages = pagesFrom(run.output);
  const figures: BuildFigures = {
    catalog,
    pages,
    wallSeconds: round(run.wallSeconds, 2),
    pagesPerSecond: round(pages / run.wallSeconds, 1),
    peakMemoryMiB: round(run.peakTreeRssBytes / 2 ** 20),
    astroBuilt: /Building the storefront|astro build|\[build\]/.test(run.output),
    ...cpuFigures(run),
  };
  log(
    `  build ${catalog}: ${pages} pages in ${figures.wallSeconds} s (${figures.pagesPerSecond} pages/s), peak ${figures.peakMemoryMiB} MiB`,
  );
  return figures;
}

/**
 * After the full build of the generated catalog: one product's price changes (scripts/bench/change-one-price.ts)
 * and `npm run build` publishes again, timed the same way; then another price change is published by a running
 * storefront, as an editor publishes. Both reuse every page the change does not touch
 * (docs/decisions/211-incremental-builds.md), the publish in the folder of a pruned build (ADR 220); the budget weighs the editor's publish against the full build of
 * the same run.
 */
export async function incrementalBuild(log: (line: string) => void): Promise<IncrementalFigures> {
  const env = childEnv({ DATA_DIR: BENCH.bigDataDir, BUILDS_DIR: BENCH.bigBuildsDir });
  const changed = await measureCommand(process.execPath, [path.resolve('scripts/bench/change-one-price.ts')], env);
  if (changed.code !== 0) throw new Error(`The price change failed:\n${changed.output.slice(-3000)}`);
  const run = await measureCommand('npm', ['run', 'build'], env);
  if (run.code !== 0)
    throw new Error(`The incremental npm run build exited with ${run.code}:\n${run.output.slice(-3000)}`);
  const reused = /\((\d+) reused from the live build\)/.exec(run.output);
  if (!reused) throw new Error(`Could not find the reused pages in the build output:\n${run.output.slice(-2000)}`);
  // Two builds kept: the start-up publish prunes the full build, which the timed publish recycles, as a
  // store that has published before has a spare to (docs/decisions/220-recycled-build-folders.md).
  const published = await measureCommand(process.execPath, [path.resolve('scripts/bench/publish-one-price.ts')], {
    ...env,
    BUILDS_KEPT: '2',
  });
  const publish = /^\{"publishSeconds".*$/m.exec(published.output);
  if (published.code !== 0 || !publish)
    throw new Error(`The publish in a running storefront failed:\n${published.output.slice(-3000)}`);
  const figures: IncrementalFigures = {
    wallSeconds: round(run.wallSeconds, 2),
    publishSeconds: round((JSON.parse(publish[0]) as { publishSeconds: number }).publishSeconds, 2),
    pages: pagesFrom(run.output),
    reused: Number(reused[1]),
    ...(run.cpuSeconds !== undefined ? { cpuSeconds: round(run.cpuSeconds, 1) } : {}),
  };
  log(
    `  incremental build after one price change: ${figures.pages - figures.reused} pages rendered, ${figures.reused} linked, in ${figures.wallSeconds} s (npm run build); published in a running storefront in ${figures.publishSeconds} s`,
  );
  return figures;
}

/**
 * `npm run build -- --force` of the demo store on a fresh database, as on a fresh clone (the Astro
 * build always runs, with the bench's source maps); leaves its data and build for the other sections.
 */
export async function buildDemo(log: (line: string) => void): Promise<BuildFigures> {
  await moveAside(BENCH.demoDataDir);
  await moveAside(BENCH.demoBuildsDir);
  return timedBuild('demo', BENCH.demoDataDir, BENCH.demoBuildsDir, log, true);
}

/** Where a generated catalog's file, database and builds go. */
export type GeneratedPlace = { dataDir: string; buildsDir: string; catalogFile: string };

const BIG: GeneratedPlace = {
  dataDir: BENCH.bigDataDir,
  buildsDir: BENCH.bigBuildsDir,
  catalogFile: BENCH.bigCatalogFile,
};

/**
 * Generates a catalog of `products` products (streamed to its file), creates a fresh database, imports
 * the file into it (its peak memory measured apart from creating the database) and times `npm run build`.
 */
export async function buildGenerated(
  products: number,
  log: (line: string) => void,
  place: GeneratedPlace = BIG,
): Promise<BuildFigures> {
  await moveAside(place.dataDir);
  await moveAside(place.buildsDir);
  await writeCatalogFile(place.catalogFile, products, Math.max(1, Math.round(products / 100)));
  const env = childEnv({ DATA_DIR: place.dataDir });
  const created = await measureCommand(process.execPath, [path.resolve('scripts/migrate.ts')], env);
  if (created.code !== 0) throw new Error(`Creating the database failed:\n${created.output.slice(-3000)}`);
  // As an operator imports: `npm run import` sets the V8 flags the import runs with (ADR 217).
  const imported = await measureCommand('npm', ['run', 'import', '--', place.catalogFile], env);
  if (imported.code !== 0) throw new Error(`Import of the generated catalog failed:\n${imported.output.slice(-3000)}`);
  const importPeakMiB = round(imported.peakTreeRssBytes / 2 ** 20);
  log(`  imported ${products} products in ${round(imported.wallSeconds, 1)} s, peak ${importPeakMiB} MiB`);
  await settleDisk();
  const figures = await timedBuild(`${products.toLocaleString('en-US')} products`, place.dataDir, place.buildsDir, log);
  figures.importSeconds = round(imported.wallSeconds, 1);
  figures.importPeakMiB = importPeakMiB;
  await rm(place.catalogFile, { force: true });
  return figures;
}
