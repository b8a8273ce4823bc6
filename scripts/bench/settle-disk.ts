import { execFile } from 'node:child_process';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { BENCH } from './bench-env.ts';

const execFileAsync = promisify(execFile);

/**
 * How long this unjournaled ext4 keeps a freed inode from being handed out again while its inode table block
 * is dirty, plus a second: a minute once the block is written, five while it is not, and a build dirties
 * the blocks it allocates from. A build 4 min 20 s after a large deletion still spent 14.6 s in the kernel
 * (docs/performance.md).
 */
const RECENTLY_DELETED_MS = 301_000;
/** Written into the trash folder each time it is emptied: its time is the last large deletion's. */
const EMPTIED = '.emptied';

/** How long a timed build still has to wait at `now` for the kernel's five minutes after the trash was emptied. */
export async function msToWait(now = Date.now(), trashDir = BENCH.trashDir): Promise<number> {
  const emptied = await stat(path.join(trashDir, EMPTIED)).catch(() => null);
  return emptied ? Math.max(0, emptied.mtimeMs + RECENTLY_DELETED_MS - now) : 0;
}

/**
 * Readies the disk for a timed build: every dirty page is written out (`sync`), else the import's writes
 * are flushed while the build runs and charged to it (docs/decisions/215-references-that-share-the-bottleneck.md),
 * and a build does not start within five minutes after the trash was emptied (`moveAside`), by this run or
 * the one before it.
 */
export async function settleDisk(): Promise<void> {
  await execFileAsync('sync');
  const wait = await msToWait();
  if (wait > 0) await sleep(wait);
}

/**
 * Moves an earlier run's output out of the way of a timed build instead of deleting it there. Without a
 * journal, ext4 does not hand out an inode freed in the last minute (five while its table is unwritten):
 * each new file's search walks past all of them, so a 10,000-page build right after the deletion of the
 * last one's 41,000 files spent 19–38 s in the kernel instead of 3–7 s, and its figure depended on how long
 * ago the deletion was (docs/decisions/221-timed-builds-away-from-large-deletions.md).
 */
export async function moveAside(folder: string, trashDir = BENCH.trashDir): Promise<void> {
  await mkdir(trashDir, { recursive: true });
  const aside = path.join(trashDir, `${path.basename(folder)}-${process.pid}-${Date.now()}`);
  try {
    await rename(folder, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Deletes what `moveAside` kept, once the section's timed builds are over, and notes when (`settleDisk`). */
export async function emptyTrash(trashDir = BENCH.trashDir): Promise<void> {
  const names = await readdir(trashDir).catch(() => []);
  await Promise.all(names.map((name) => rm(path.join(trashDir, name), { recursive: true, force: true })));
  await mkdir(trashDir, { recursive: true });
  await writeFile(path.join(trashDir, EMPTIED), '');
}
