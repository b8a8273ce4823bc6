/**
 * PGlite is PostgreSQL compiled into this process: two processes opening one data folder each believe
 * they own it, never see each other's writes and can corrupt it (docs/decisions/209-one-process-per-pglite-folder.md).
 * A lock file beside the folder names the process that has it open; another process is refused with a
 * message saying what to do, and a lock whose process has died is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** How long to wait for a holder that is exiting (a restart under `node --watch` or a test's server). */
const WAIT_MS = 3_000;
const STEP_MS = 100;

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The database folder ${dataDir} is open in another process (pid ${pid}), most likely npm start. ` +
        'PGlite serves one process at a time: stop that process first, or set DATABASE_URL to use PostgreSQL, ' +
        'which serves several. Operators can also be invited from the console’s Staff page while the store runs.',
    );
    this.name = 'DataDirInUseError';
  }
}

export const lockPathOf = (dataDir: string): string => `${path.resolve(dataDir)}.lock`;

function holderOf(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Whether `pid` is a running Node process (a pid reused by another program after a restart is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true; // No /proc (macOS): the pid is all there is to go on.
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Claims `dataDir` for this process and answers the function that gives it back (also done when the
 * process exits); throws DataDirInUseError when a live process still holds it after `waitMs`. Opening
 * the folder again in the same process is allowed: a script that migrates, closes and reopens.
 */
export function claimDataDir(dataDir: string, waitMs = WAIT_MS): () => void {
  const lockPath = lockPathOf(dataDir);
  const release = () => {
    process.off('exit', release);
    if (holderOf(lockPath) === process.pid) rmSync(lockPath, { force: true });
  };
  for (let waited = 0; ; waited += STEP_MS) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(lockPath);
    if (holder === process.pid) return release;
    if (holder !== null && !alive(holder)) {
      // Its holder died without removing it (killed, crashed).
      rmSync(lockPath, { force: true });
      continue;
    }
    // No pid yet: another process is between creating the lock and writing its pid.
    if (holder === null && waited >= waitMs) {
      rmSync(lockPath, { force: true });
      continue;
    }
    if (holder !== null && waited >= waitMs) throw new DataDirInUseError(path.resolve(dataDir), holder);
    pause(STEP_MS);
  }
}
