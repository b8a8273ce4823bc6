import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Writes every dirty page out (`sync`) before a timed build: the deletion of the last build's 60,000
 * files and the import's writes are otherwise flushed while the next build runs, and this unjournaled
 * ext4 then charges our build for the clean-up (docs/decisions/215-references-that-share-the-bottleneck.md).
 */
export async function settleDisk(): Promise<void> {
  await execFileAsync('sync');
}
