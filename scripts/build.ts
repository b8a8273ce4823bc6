/**
 * `npm run build`: builds the Astro site, then snapshots every public store's pages, their
 * `_payload.json` and the build-id files into BUILDS_DIR and makes that build live.
 * Use `npm run rebuild` instead while `npm start` is running on the embedded database.
 */
import path from 'node:path';
import { runAstroBuild } from '../src/front/astro-build.ts';
import { startStorefront } from '../src/front/start-storefront.ts';
import { progressLine } from './progress-line.ts';

const started = performance.now();
const distDir = path.resolve(process.env.DIST_DIR ?? 'dist');
await runAstroBuild(distDir);
const progress = progressLine('Snapshot');
const storefront = await startStorefront({ port: 0, host: '127.0.0.1', snapshotOnStart: true, onProgress: progress.update, log: progress.log });
await storefront.close();
const seconds = (performance.now() - started) / 1000;
progress.done(seconds);
