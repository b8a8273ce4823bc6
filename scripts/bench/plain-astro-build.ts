import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { childEnv } from './bench-env.ts';
import { cpuFigures, measureCommand } from './processes.ts';
import { moveAside, settleDisk } from './settle-disk.ts';
import { round } from './stats.ts';

/** The reference for the build budget: what Astro alone does with as many pages, on the same machine, minutes apart. */
export type PlainAstroFigures = {
  pages: number;
  wallSeconds: number;
  pagesPerSecond: number;
  cpuSeconds?: number;
  /** The kernel's part of `cpuSeconds` (file writes, page faults). */
  systemCpuSeconds?: number;
};

/**
 * Below the project, so the generated project resolves the project's own `astro` from node_modules
 * (gitignored, as bench/tmp is).
 */
const PLAIN_ROOT = path.resolve('bench/tmp/plain-astro');

/**
 * One `[id].astro` page with `getStaticPaths` for `pages` ids: a static Astro build, nothing of ours in it.
 * The last run's project is moved aside, as our build's output is (build-bench.ts), so neither build
 * follows a large deletion (docs/decisions/221-timed-builds-away-from-large-deletions.md).
 */
async function writePlainProject(pages: number): Promise<void> {
  await moveAside(PLAIN_ROOT);
  await mkdir(path.join(PLAIN_ROOT, 'src/pages'), { recursive: true });
  await writeFile(path.join(PLAIN_ROOT, 'astro.config.mjs'), "export default { output: 'static' };\n");
  await writeFile(
    path.join(PLAIN_ROOT, 'src/pages/[id].astro'),
    `---
export function getStaticPaths() {
  return Array.from({ length: ${pages} }, (_, i) => ({ params: { id: String(i + 1) } }));
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

/** `astro build` of `pages` trivial pages with the same Node as our build, timed the same way. */
export async function plainAstroBuild(pages: number, log: (line: string) => void): Promise<PlainAstroFigures> {
  await writePlainProject(pages);
  await settleDisk();
  const run = await measureCommand(
    process.execPath,
    [path.resolve('node_modules/astro/bin/astro.mjs'), 'build', '--root', PLAIN_ROOT],
    // The bench's own DIST_DIR and source maps are for our build; this project builds into its own dist.
    { ...childEnv({}), DIST_DIR: '', ASTRO_SOURCEMAP: '' },
  );
  if (run.code !== 0) throw new Error(`The plain Astro build exited with ${run.code}:\n${run.output.slice(-3000)}`);
  const figures: PlainAstroFigures = {
    pages,
    wallSeconds: round(run.wallSeconds, 2),
    pagesPerSecond: round(pages / run.wallSeconds, 1),
    ...cpuFigures(run),
  };
  log(`  plain Astro build: ${pages} trivial pages in ${figures.wallSeconds} s (${figures.pagesPerSecond} pages/s)`);
  return figures;
}
