/**
 * Worker thread of `CompressedWriter`: compresses and writes snapshot files with synchronous zlib
 * and fs calls, so the main thread (page renders and the embedded database) never waits on them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type WriteJob = {
  id: number;
  file: string;
  data: Uint8Array;
  compress: boolean;
  brotliQuality: number;
};

const made = new Set<string>();

function run(job: WriteJob): { id: number; error?: string } {
  try {
    const dir = path.dirname(job.file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(job.file, job.data);
    if (job.compress) {
      writeFileSync(
        `${job.file}.br`,
        brotliCompressSync(job.data, { params: { [constants.BROTLI_PARAM_QUALITY]: job.brotliQuality } }),
      );
      writeFileSync(`${job.file}.gz`, gzipSync(job.data, { level: job.brotliQuality >= 11 ? 9 : 7 }));
    }
    return { id: job.id };
  } catch (error) {
    return { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
}

// Jobs arrive and are answered in batches: one message per batch, not per file.
parentPort!.on('message', (jobs: WriteJob[]) => {
  parentPort!.postMessage(jobs.map(run));
});
