import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ASSET_COMPRESSION, CompressedWriter } from './compression.ts';
import { COMPRESSIBLE } from './static-files.ts';

const SOURCES = ['src', 'public', 'astro.config.mjs', 'package-lock.json'];

async function newestMtime(entry: string): Promise<number> {
  const s = await stat(entry).catch(() => null);
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = s.mtimeMs;
  for (const child of await readdir(entry)) newest = Math.max(newest, await newestMtime(path.join(entry, child)));
  return newest;
}

/** The server entry of an Astro build in `distDir`. */
export function astroEntry(distDir: string): string {
  return path.resolve(distDir, 'server', 'entry.mjs');
}

/** True when `distDir` holds no build or one older than a source file. */
export async function astroBuildIsStale(distDir: string, root = process.cwd()): Promise<boolean> {
  const entry = astroEntry(distDir);
  if (!existsSync(entry)) return true;
  const built = (await stat(entry)).mtimeMs;
  for (const source of SOURCES) if ((await newestMtime(path.join(root, source))) > built) return true;
  return false;
}

/** Runs `astro build` on this Node (24) into `distDir`, printing its output. */
export async function runAstroBuild(distDir: string): Promise<void> {
  const astroBin = path.join(
    path.dirname(createRequire(import.meta.url).resolve('astro/package.json')),
    'bin',
    'astro.mjs',
  );
  const env = {
    ...process.env,
    DIST_DIR: distDir,
    // Builds into different folders at once (several checkouts, tests) must not share Vite's cache.
    ASTRO_CACHE_DIR:
      process.env.ASTRO_CACHE_DIR ?? path.join('node_modules', `.astro-${path.basename(path.resolve(distDir))}`),
    ASTRO_TELEMETRY_DISABLED: '1',
  };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [astroBin, 'build'], { stdio: 'inherit', env });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build exited with ${code}`))));
  });
  await precompressFolder(path.join(distDir, 'client'));
}

/** Writes `.br` and `.gz` beside every compressible file (`ASSET_COMPRESSION`: assets are few and served many times). */
export async function precompressFolder(folder: string): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  const writer = new CompressedWriter();
  try {
    await Promise.all(
      entries
        .filter((entry) => entry.isFile() && COMPRESSIBLE.has(path.extname(entry.name)))
        .map(async (entry) => {
          const file = path.join(entry.parentPath, entry.name);
          await writer.write(file, await readFile(file), ASSET_COMPRESSION);
        }),
    );
  } finally {
    await writer.close();
  }
}

/** Builds the Astro site when it is missing or older than its sources. */
export async function ensureAstroBuild(distDir: string, log: (line: string) => void): Promise<void> {
  if (!(await astroBuildIsStale(distDir))) return;
  log(`Building the storefront into ${distDir}/ …`);
  await runAstroBuild(distDir);
}
