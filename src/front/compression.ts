import path from 'node:path';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { WriteJob, WriteResult, WrittenFile } from './compress-worker.ts';
import { COMPRESSIBLE, MIN_COMPRESSED_BYTES, ON_DEMAND_COMPRESSION } from './static-files.ts';

/** Jobs of one turn worth splitting between the threads rather than sending to one. */
const SHARED_BATCH = 64;
/**
 * Files a batch holds when it is sent without waiting for the turn to end. A snapshot's renders await only
 * microtasks when their API answers are kept (snapshot-api-memo.ts), so one turn rendered a hundred pages
 * while the threads waited, and then the renders waited on the threads, a whole batch being answered at
 * once: the main thread was idle a fifth of a 10,000-page build's renders (docs/performance.md).
 */
const FILES_PER_EARLY_BATCH = 16;
/** Folders per job of `makeFolders`: enough jobs that one turn's batch is shared out between the threads. */
const FOLDERS_PER_JOB = 100;

/** The compressed copies `CompressedWriter` writes beside a file worth compressing. */
export type Compression = {
  brotliQuality: number;
  /** The `.gz` copy's level, or null for none: the front gzips on demand instead (static-files.ts). */
  gzipLevel: number | null;
};

/**
 * Snapshot pages and payloads: brotli at the quality the front compresses pages rendered on demand with
 * (`ON_DEMAND_COMPRESSION`, 4), and no `.gz`. Quality 5 made a product page 7 % smaller for 40 % more time. Every browser
 * accepts brotli over HTTPS; a client that accepts only gzip gets it made by the front on its first ask and
 * kept. The `.gz` copy was a quarter of a build's files and a third of its compression time
 * (docs/decisions/222-pages-compressed-once.md).
 */
export const PAGE_COMPRESSION: Compression = { brotliQuality: ON_DEMAND_COMPRESSION.brotliQuality, gzipLevel: null };

/** Built assets: few, served many times, compressed once per Astro build, so the smallest of both. */
export const ASSET_COMPRESSION: Compression = { brotliQuality: 11, gzipLevel: 9 };

/** Whether `bytes` is the whole of a buffer of its own, which can be moved to a thread without copying it. */
const ownsBuffer = (bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> =>
  bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;

/** Whether `CompressedWriter` writes compressed copies beside a file of this name and size. */
function isCompressed(file: string, bytes: number): boolean {
  return COMPRESSIBLE.has(path.extname(file)) && bytes >= MIN_COMPRESSED_BYTES;
}

/** The files `CompressedWriter.write` makes of a file of this name and size. */
export function writtenFiles(file: string, bytes: number, compression: Compression): string[] {
  if (!isCompressed(file, bytes)) return [file];
  return compression.gzipLevel === null ? [file, `${file}.br`] : [file, `${file}.br`, `${file}.gz`];
}

/**
 * Writes files and, when worth it, their compressed siblings for the front to send as they are
 * (`PAGE_COMPRESSION`, `ASSET_COMPRESSION`). Compression and writing run on worker threads (one per core,
 * at least two: they also wait on the disk). A snapshot's main thread renders pages and runs the embedded database; with zlib and fs on
 * it too, a 10,000-page build spent a third of its time there (docs/performance.md).
 */
export class CompressedWriter {
  readonly #workers: Worker[];
  readonly #pending = new Map<number, { resolve: (files: WrittenFile[]) => void; reject: (error: Error) => void }>();
  #next = 0;
  #turn = 0;
  #batch: WriteJob[] = [];
  /** Jobs of `#batch` that write a file. */
  #batchFiles = 0;
  readonly #replace: boolean;

  /**
   * `replace`: the folder may hold a file where one is written (a recycled build folder,
   * docs/decisions/220-recycled-build-folders.md); it is deleted first, never written through, as it may be
   * a hard link of another build's file.
   */
  constructor({ workers = Math.max(2, availableParallelism()), replace = false } = {}) {
    this.#replace = replace;
    this.#workers = Array.from({ length: workers }, () => {
      const worker = new Worker(new URL('./compress-worker.ts', import.meta.url));
      worker.on('message', (results: WriteResult[]) => {
        for (const { id, files, error, code } of results) {
          const job = this.#pending.get(id);
          this.#pending.delete(id);
          if (error) job?.reject(Object.assign(new Error(`Writing a snapshot file failed: ${error}`), { code }));
          else job?.resolve(files ?? []);
        }
      });
      worker.on('error', (error) => {
        for (const job of this.#pending.values())
          job.reject(new Error('A snapshot writer thread crashed', { cause: error }));
        this.#pending.clear();
      });
      return worker;
    });
  }

  /**
   * Writes `file` (and its compressed copies when worth it); resolves once all are on disk, with their digests.
   * `move`: `body` is the caller's to give away (it is not read again), so bytes that fill their own buffer go to
   * the thread as they are instead of copied (a rendered page, page-render.ts).
   */
  write(
    file: string,
    body: Uint8Array | string,
    compression: Compression,
    { move = false }: { move?: boolean } = {},
  ): Promise<WrittenFile[]> {
    const data =
      typeof body === 'string'
        ? new TextEncoder().encode(body)
        : move && ownsBuffer(body)
          ? body
          : // A copy of exactly these bytes, moved (not cloned) to the thread: a Buffer may view a larger pool.
            new Uint8Array(body);
    const compress = isCompressed(file, data.length) ? compression : null;
    return this.#queue({ id: this.#next++, file, data, compress, replace: this.#replace });
  }

  /**
   * Hard-links each `existing` file at its `file` (folders made first); rejects with `code` 'ENOENT' when one
   * is gone, leaving those linked before it. Done on the threads, one job per page: a reused 10,000-page
   * build links 60,000 files (docs/performance.md).
   */
  async link(links: { existing: string; file: string }[]): Promise<void> {
    await this.#queue({ id: this.#next++, links });
  }

  /**
   * Makes `folders`, shared out between the threads. Making a folder costs the disk far more than linking a
   * file (on one machine 150-300 µs against 11), so an incremental build makes the live build's folders
   * while the main thread lists the catalog (docs/decisions/211-incremental-builds.md).
   */
  async makeFolders(folders: readonly string[]): Promise<void> {
    const jobs: Promise<WrittenFile[]>[] = [];
    for (let start = 0; start < folders.length; start += FOLDERS_PER_JOB)
      jobs.push(this.#queue({ id: this.#next++, folders: folders.slice(start, start + FOLDERS_PER_JOB) }));
    await Promise.all(jobs);
  }

  #queue(job: WriteJob): Promise<WrittenFile[]> {
    return new Promise<WrittenFile[]>((resolve, reject) => {
      this.#pending.set(job.id, { resolve, reject });
      this.#batch.push(job);
      // Posting is costly per message (a third of a writer's main-thread time): sent once per turn, or once
      // the batch holds enough files to keep a thread busy while the turn goes on.
      if ('data' in job && ++this.#batchFiles >= FILES_PER_EARLY_BATCH) this.#flush();
      else if (this.#batch.length === 1) setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    // Sent already, as its files filled it, after the turn's first job asked for this flush.
    if (this.#batch.length === 0) return;
    const batch = this.#batch;
    this.#batch = [];
    this.#batchFiles = 0;
    // A large batch (an incremental build's links) is shared out between the threads.
    const share = batch.length < SHARED_BATCH ? batch.length : Math.ceil(batch.length / this.#workers.length);
    for (let start = 0; start < batch.length; start += share) {
      const part = batch.slice(start, start + share);
      const worker = this.#workers[this.#turn++ % this.#workers.length]!;
      worker.postMessage(
        part,
        part.flatMap((job) => ('data' in job ? [job.data.buffer as ArrayBuffer] : [])),
      );
    }
  }

  /** Stops the threads (after every write was awaited). */
  async close(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
  }
}
