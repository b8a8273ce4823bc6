import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { childEnv } from './bench-env.ts';
import { cpuFigures, measureCommand } from './processes.ts';
import { moveAside, settleDisk } from './settle-disk.ts';
import { round } from './stats.ts';

/** The reference for the build budget: what Astro alone does with as many pages, on the same machine, minutes apart. */
export type PlainAstroFigures = {
  pages: number;
  /** Astro builds run at once, the pages shared between them (absent: one, as before ADR 228). */
  builds?: number;
  /** From the first build's start to the last one's end. */
  wallSeconds: number;
  pagesPerSecond: number;
  cpuSeconds?: number;
  /** The kernel's part of `cpuSeconds` (file writes, page faults). */
  systemCpuSeconds?: number;
};

/**
 * Plain Astro builds run at once for the reference: as many cores as our build keeps busy, its main thread
 * and the writer threads beside it (about two: docs/performance.md). One Astro build keeps one core busy, so
 * a machine busy with other work slowed it half as much as ours, and the ratio judged the machine's load
 * (docs/decisions/228-a-build-reference-on-two-cores.md).
 */
export const REFERENCE_BUILDS = 2;

/**
 * Below the project, so the generated project resolves the project's own `astro` from node_modules
 * (gitignored, as bench/tmp is).
 */
const PLAIN_ROOT = path.resolve('bench/tmp/plain-astro');

/**
 * One `[id].astro` page with `getStaticPaths` for `count` ids from `first`: a static Astro build, nothing of ours
 * in it.
 */
async function writePlainProject(root: string, first: number, count: number): Promise<void> {
  await mkdir(path.join(root, 'src/pages'), { recursive: true });
  await writeFile(path.join(root, 'astro.config.mjs'), "export default { output: 'static' };\n");
  await writeFile(
    path.join(root, 'src/pages/[id].astro'),
    `---
export function getStaticPaths() {
  return Array.from({ length: ${count} }, (_, i) => ({ params: { id: String(${first} + i) } }));
}
const { id } = Astro.params;
---
<html lang="en">
  <head><meta charset="utf-8" /><title>Page {id}</title></head>
  <body><h1>Page {id}</h1><p>A trivial page for the build reference.</p></body>
</html>
`,
  );
}

/** `pages` shared between `builds` as evenly as they go: the first ones take one more. */
export function sharePages(pages: number, builds: number): number[] {
  return Array.from({ length: builds }, (_, index) => Math.floor(pages / builds) + (index < pages % builds ? 1 : 0));
}

/**
 * `REFERENCE_BUILDS` `astro build`s at once, of `pages` trivial pages between them, with the same Node as our
 * build, each timed as it is. The last run's projects are moved aside, as our build's output is
 * (build-bench.ts), so neither build follows a large deletion
 * (docs/decisions/221-timed-builds-away-from-large-deletions.md).
 */
export async function plainAstroBuild(pages: number, log: (line: string) => void): Promise<PlainAstroFigures> {
  await moveAside(PLAIN_ROOT);
  const shares = sharePages(pages, REFERENCE_BUILDS);
  const roots = shares.map((_, index) => path.join(PLAIN_ROOT, String(index)));
  let first = 1;
  for (const [index, count] of shares.entries()) {
    await writePlainProject(roots[index]!, first, count);
    first += count;
  }
  await settleDisk();
  const started = performance.now();
  const runs = await Promise.all(
    roots.map((root) =>
      measureCommand(
        process.execPath,
        [path.resolve('node_modules/astro/bin/astro.mjs'), 'build', '--root', root],
        // The bench's own DIST_DIR and source maps are for our build; each project builds into its own dist.
        { ...childEnv({}), DIST_DIR: '', ASTRO_SOURCEMAP: '' },
      ),
    ),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const failed = runs.find((run) => run.code !== 0);
  if (failed) throw new Error(`A plain Astro build exited with ${failed.code}:\n${failed.output.slice(-3000)}`);
  const cpu = runs.map(cpuFigures);
  const sum = (key: 'cpuSeconds' | 'systemCpuSeconds') =>
    cpu.every((figures) => figures[key] !== undefined)
      ? {
          [key]: round(
            cpu.reduce((total, figures) => total + figures[key]!, 0),
            1,
          ),
        }
      : {};
  const figures: PlainAstroFigures = {
    pages,
    builds: REFERENCE_BUILDS,
    wallSeconds: round(wallSeconds, 2),
    pagesPerSecond: round(pages / wallSeconds, 1),
    ...sum('cpuSeconds'),
    ...sum('systemCpuSeconds'),
  };
  log(
    `  plain Astro build: ${pages} trivial pages in ${figures.wallSeconds} s (${figures.pagesPerSecond} pages/s), ${REFERENCE_BUILDS} builds at once`,
  );
  return figures;
}
