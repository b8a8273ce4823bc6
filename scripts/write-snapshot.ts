import { startStorefront } from '../src/front/start-storefront.ts';
import { progressLine } from './progress-line.ts';

/**
 * Snapshots every public store with a storefront of its own on a free port, printing progress and
 * the time since `started` (the build and the rebuild without a running server share it). Only the pages
 * a change touches are rendered unless `full` (docs/decisions/211-incremental-builds.md).
 */
export async function writeSnapshot(started: number, full = false): Promise<void> {
  const progress = progressLine('Snapshot');
  const storefront = await startStorefront({
    port: 0,
    host: '127.0.0.1',
    snapshotOnStart: true,
    fullSnapshot: full,
    onProgress: progress.update,
    log: progress.log,
  });
  await storefront.close();
  progress.done((performance.now() - started) / 1000);
}
