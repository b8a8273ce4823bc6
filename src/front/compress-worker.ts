/**
 * Worker thread of `CompressedWriter`: compresses and writes snapshot files, and links those an
 * incremental build reuses, with synchronous zlib and fs calls, so the main thread (page renders and the
 * embedded database) never waits on them.
 */
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Compression } from './compression.ts';

export type WriteJob =
  /** `replace`: a file already there is deleted first (it may be a hard link of another build's file). */
  | { id: number; file: string; data: Uint8Array; compress: Compression | null; replace: boolean }
  /** Hard links at each `file` of `existing` (another build's file). */
  | { id: number; links: { existing: string; file: string }[] }
  /** Folders made before their files are known (the live build's, while the catalog is listed). */
  | { id: number; folders: string[] };

/** A file the thread wrote, with the digest the build's manifest lists (build-manifest.ts). */
export type WrittenFile = { file: string; size: number; sha256: string };

/** `code` is the failed call's (`ENOENT`: a file to link is gone). */
export type WriteResult = { id: number; files?: WrittenFile[]; error?: string; code?: string };

const made = new Set<string>();

/** Writes `data` and hashes it on the way: the manifest need not read the build's files back. */
function written(file: string, data: Uint8Array, replace: boolean): WrittenFile {
  if (replace) rmSync(file, { force: true });
  writeFileSync(file, data);
  return { file, size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}

function madeFolderOf(file: string): void {
  const dir = path.dirname(file);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
}

/**
 * Links `existing` at `file`, making its folder only when the link finds none: the live build's folders are
 * made first, shared out between the threads, so nearly every link finds its folder (made by either).
 */
function linked(existing: string, file: string): void {
  try {
    linkSync(existing, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || made.has(path.dirname(file))) throw error;
    madeFolderOf(file);
    // An `existing` file that is gone fails again, with its ENOENT.
    linkSync(existing, file);
  }
}

function run(job: WriteJob): WriteResult {
  try {
    if ('folders' in job) {
      for (const folder of job.folders) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      return { id: job.id, files: [] };
    }
    if ('links' in job) {
      for (const { existing, file } of job.links) linked(existing, file);
      return { id: job.id, files: [] };
    }
    madeFolderOf(job.file);
    const files = [written(job.file, job.data, job.replace)];
    const { compress } = job;
    if (compress) {
      const br = brotliCompressSync(job.data, { params: { [constants.BROTLI_PARAM_QUALITY]: compress.brotliQuality } });
      files.push(written(`${job.file}.br`, br, job.replace));
      if (compress.gzipLevel !== null)
        files.push(written(`${job.file}.gz`, gzipSync(job.data, { level: compress.gzipLevel }), job.replace));
    }
    return { id: job.id, files };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { id: job.id, error: error instanceof Error ? error.message : String(error), ...(code ? { code } : {}) };
  }
}

// Jobs arrive and are answered in batches: one message per batch, not per file.
parentPort!.on('message', (jobs: WriteJob[]) => {
  parentPort!.postMessage(jobs.map(run));
});
