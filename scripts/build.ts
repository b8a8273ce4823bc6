/**
 * `npm run build`: builds the Astro site (skipped when DIST_DIR is newer than every source, like
 * `make`; `-- --force` always builds), then snapshots every public store's pages, their
 * `_payload.json` and the build-id files into BUILDS_DIR and makes that build live.
 * Use `npm run rebuild` instead while `npm start` is running on the embedded database.
 */
import path from 'node:path';
import { ensureAstroBuild, runAstroBuild } from '../src/front/astro-build.ts';
import { loadConfig } from '../src/server/config.ts';
import { claimDatabaseFolderOrExit } from './api-runtime.ts';
import { writeSnapshot } from './write-snapshot.ts';

const started = performance.now();
// Beside `npm start` or another build on the same PGlite folder, fail before the Astro build rewrites
// the DIST_DIR they serve from, not after it (docs/decisions/209-one-process-per-pglite-folder.md).
claimDatabaseFolderOrExit(loadConfig());
const distDir = path.resolve(process.env.DIST_DIR ?? 'dist');
// A catalog change (the common rebuild) does not change the site's code: reusing an up-to-date
// Astro build saves 6–15 s per build on 2 cores (docs/performance.md).
if (process.argv.includes('--force')) await runAstroBuild(distDir);
else await ensureAstroBuild(distDir, (line) => console.log(line));
// Only the pages a change touches are rendered unless `-- --full` (docs/decisions/211-incremental-builds.md).
await writeSnapshot(started, process.argv.includes('--full'));
