import { rm } from 'node:fs/promises';
import path from 'node:path';
import { CompressedWriter } from './compression.ts';
import { derivativeUrlsIn } from '../lib/responsive-image.ts';
import { PRERENDER_HEADER } from './front-server.ts';

/** A page of the snapshot: its URL path and the data its `_payload.json` holds (null for none). */
export type SnapshotPage = {
  path: string;
  payload: () => Promise<unknown>;
};

export type SnapshotOptions = {
  /** The build's id, given by publishing (src/server/publishing/publishing.ts), which recorded it first. */
  id: string;
  /** The running front that renders pages, e.g. `http://127.0.0.1:4321`. */
  baseUrl: string;
  prerenderSecret: string;
  buildsDir: string;
  pages: SnapshotPage[];
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
};

export type SnapshotResult = {
  id: string;
  pages: number;
  /** Image derivatives the pages offer, made (or found made) before the build went live. */
  images: number;
  skipped: string[];
  durationMs: number;
};

/** Files queued for the writer threads before renders wait (bounds memory on large catalogs). */
const MAX_PENDING_WRITES = 256;

function pageFile(root: string, urlPath: string, name: string): string {
  const clean = urlPath.replace(/^\/+|\/+$/g, '');
  if (path.extname(clean)) return path.join(root, clean);
  return path.join(root, clean, name);
}

/**
 * Renders every page through the live handler and writes `{path}/index.html`, `{path}/_payload.json`,
 * `builds/latest.json` and `builds/meta/{id}.json` into a new folder beside the live build.
 * The caller switches to it; a failed render (5xx) fails the whole snapshot so a broken build never goes live.
 */
export async function writeSnapshot(options: SnapshotOptions): Promise<SnapshotResult> {
  const started = Date.now();
  const { id } = options;
  const root = path.join(path.resolve(options.buildsDir), id);
  const skipped: string[] = [];
  const total = options.pages.length;
  let done = 0;
  let next = 0;
  const derivatives = new Set<string>();
  const writer = new CompressedWriter();
  // Renders do not wait for their files: up to MAX_PENDING_WRITES queue on the writer threads.
  const pendingWrites = new Set<Promise<void>>();
  let writeFailure: Error | null = null;
  // A function, so each call reads the variable the write callbacks set (not a narrowed copy).
  const rethrowWriteFailure = (): void => {
    if (writeFailure) throw writeFailure;
  };
  async function writeCompressed(file: string, body: Buffer | string): Promise<void> {
    while (pendingWrites.size >= MAX_PENDING_WRITES) await Promise.race(pendingWrites);
    rethrowWriteFailure();
    const write: Promise<void> = writer.write(file, body).then(
      () => void pendingWrites.delete(write),
      (error: unknown) => {
        pendingWrites.delete(write);
        writeFailure ??=
          error instanceof Error ? error : new Error('A snapshot file could not be written', { cause: error });
      },
    );
    pendingWrites.add(write);
  }

  async function renderOne(page: SnapshotPage): Promise<void> {
    const response = await fetch(new URL(page.path, options.baseUrl), {
      headers: { [PRERENDER_HEADER]: options.prerenderSecret, 'accept-encoding': 'identity' },
      redirect: 'manual',
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status >= 500)
      throw new Error(`Snapshot of ${page.path} failed with ${response.status}: ${body.toString().slice(0, 300)}`);
    if (response.status !== 200) {
      skipped.push(`${page.path} (${response.status})`);
      return;
    }
    const isHtml = (response.headers.get('content-type') ?? '').includes('text/html');
    await writeCompressed(pageFile(root, page.path, isHtml ? 'index.html' : 'index'), body);
    if (isHtml) {
      for (const url of derivativeUrlsIn(body.toString())) derivatives.add(url);
      const payload = await page.payload();
      if (payload !== null) await writeCompressed(pageFile(root, page.path, '_payload.json'), JSON.stringify(payload));
    }
  }

  // Set when a page failed: the other workers stop taking pages, so nothing writes into the build
  // folder once it is being removed.
  let stopped = false;
  async function worker(): Promise<void> {
    while (!stopped && next < total) {
      const page = options.pages[next++]!;
      await renderOne(page);
      done += 1;
      options.onProgress?.(done, total);
    }
  }

  const workers = Array.from({ length: Math.min(options.concurrency ?? 8, Math.max(total, 1)) }, worker);
  try {
    await Promise.all(workers);
    await Promise.all(pendingWrites);
    rethrowWriteFailure();
    await makeDerivatives(options.baseUrl, [...derivatives]);
    const timestamp = Date.now();
    await writeCompressed(path.join(root, 'builds', 'latest.json'), JSON.stringify({ id, timestamp }));
    await writeCompressed(
      path.join(root, 'builds', 'meta', `${id}.json`),
      JSON.stringify({ id, timestamp, pages: done - skipped.length, skipped, durationMs: timestamp - started }),
    );
    await Promise.all(pendingWrites);
    rethrowWriteFailure();
  } catch (error) {
    stopped = true;
    await Promise.allSettled(workers);
    await Promise.allSettled(pendingWrites);
    await rm(root, { recursive: true, force: true });
    throw error;
  } finally {
    await writer.close();
  }
  return { id, pages: done - skipped.length, images: derivatives.size, skipped, durationMs: Date.now() - started };
}

/**
 * Asks the front for every image derivative the pages offer, so the first shopper (and Lighthouse) finds
 * each one made (docs/decisions/184-responsive-image-derivatives.md). Kept ones are found in the cache; an
 * image that cannot be processed answers a redirect to its original, which is what shoppers get too.
 */
async function makeDerivatives(baseUrl: string, urls: string[]): Promise<void> {
  let next = 0;
  async function worker(): Promise<void> {
    while (next < urls.length) {
      const url = urls[next++]!;
      const response = await fetch(new URL(url, baseUrl), { method: 'HEAD', redirect: 'manual' });
      if (response.status >= 500) throw new Error(`Image derivative ${url} failed with ${response.status}`);
    }
  }
  // Two at a time: encoding is CPU work, and the renders are done.
  await Promise.all(Array.from({ length: Math.min(2, urls.length) }, worker));
}
