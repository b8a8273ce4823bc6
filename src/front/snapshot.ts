import { createHash } from 'node:crypto';
import { rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { CompressedWriter, PAGE_COMPRESSION, writtenFiles } from './compression.ts';
import { detached } from './detached.ts';
import { eachAtMost } from '../lib/each-at-most.ts';
import { derivativeUrlsIn } from '../lib/responsive-image.ts';
import type { RenderedPage } from './page-render.ts';
import { keepDerivative, linkClientAssets } from './build-folder.ts';
import { writeManifest, type FileDigest, type ManifestOptions } from './build-manifest.ts';
import type { ImageDerivatives } from './image-derivatives.ts';
import { removeFiles, type RecycledFolder } from './recycled-folder.ts';
import { newRecord, recordFile, writeRecord, type BuildRecord, type PageRecord } from './build-record.ts';
import { inputsHash, PageInputs } from './page-inputs.ts';

/** A page of the snapshot: its URL path and the data its `_payload.json` holds (null for none). */
export type SnapshotPage = {
  path: string;
  payload: () => Promise<unknown>;
};

export type SnapshotOptions = {
  /** The build's id, given by publishing (src/server/publishing/publishing.ts), which recorded it first. */
  id: string;
  /** The running front, e.g. `http://127.0.0.1:4321`: it makes the image derivatives the pages offer. */
  baseUrl: string;
  /** Renders a page without a socket (page-render.ts). */
  render: (path: string) => Promise<RenderedPage>;
  buildsDir: string;
  /**
   * The pages, or their listing as it goes (snapshot-pages.ts): an incremental build sorts and links the
   * first pages while the rest are listed.
   */
  pages: Iterable<SnapshotPage> | AsyncIterable<SnapshotPage>;
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  /**
   * What makes the folder a complete static site (docs/decisions/212-builds-as-static-artifacts.md): Astro's
   * client output and the image cache to link from, and what the manifest and `_headers` need.
   */
  site?: Omit<ManifestOptions, 'id'> & { clientDir: string; images: ImageDerivatives };
  /** Where the pages' API reads are recorded (the memo's, src/front/snapshot-api-memo.ts); none seen without it. */
  inputs?: PageInputs;
  /** The build's record, filled here and written beside its folder (src/front/build-record.ts). */
  record?: BuildRecord;
  /** An incremental build: the live build's pages to link instead of rendering (src/front/incremental-build.ts). */
  reuse?: PageReuse;
  /**
   * The build's folder is already there, made of a spare build (src/front/recycled-folder.ts): what it holds
   * of the live build is not linked again, and what the build does not need of it goes.
   */
  recycled?: RecycledFolder;
  /**
   * Called once every page is rendered, before the record and the manifest are made: what only the renders
   * needed (the memo of API answers) can go then (docs/decisions/216-build-memory.md).
   */
  onRendered?: () => void;
};

/** How an incremental build reuses the live build's unchanged pages (docs/decisions/211-incremental-builds.md). */
export type PageReuse = {
  /** The live build's folder. */
  from: string;
  /** The folders of the live build's pages, relative to it. */
  folders(): string[];
  /** The live build's record of `page` when its inputs are all unchanged, else null. */
  unchanged(page: string): Promise<{ entry: PageRecord; reads: string[] } | null>;
  /** The hash of an answer taken as unchanged without asking for it (the live build's), if it was. */
  takenHash(key: string): string | undefined;
};

export type SnapshotResult = {
  id: string;
  pages: number;
  /** Image derivatives the pages offer, made (or found made) before the build went live. */
  images: number;
  skipped: string[];
  /** Pages linked from the live build instead of rendered. */
  reused: number;
  durationMs: number;
  /**
   * How the pages were found: by listing the catalog, or as the live build's, the catalog's writes since
   * having changed none of them but some products' answers (docs/decisions/225-publish-from-catalog-changes.md).
   */
  found?: 'listed' | 'changes';
};

/** Where the workers of one phase take their next page: a listing still under way, or pages known. */
type PageQueue = AsyncIterator<SnapshotPage> | Iterator<SnapshotPage>;

/** Files queued for the writer threads before renders wait (bounds memory on large catalogs). */
const MAX_PENDING_WRITES = 256;

/** The page files the build history counts (docs/decisions/208-preview-and-live-build.md): not the sitemap. */
const COUNTED_PAGE_FILES = new Set(['index.html', 'index']);

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
export async function writeSnapshot(given: SnapshotOptions): Promise<SnapshotResult> {
  const options = { ...given, inputs: given.inputs ?? new PageInputs(), record: given.record ?? newRecord('') };
  const started = Date.now();
  const { id } = options;
  const root = path.join(path.resolve(options.buildsDir), id);
  const skipped: string[] = [];
  let total = 0;
  let done = 0;
  /** Each derivative URL once: pages keep their own list, and most share their images' URLs. */
  const derivatives = new Map<string, string>();
  const derivative = (url: string): string => {
    const known = derivatives.get(url);
    if (known !== undefined) return known;
    derivatives.set(url, url);
    return url;
  };
  /** Pages rendered now: their files and content hash; their reads are in `options.inputs`. */
  const rendered = new Map<string, { files: string[]; counted: boolean; content: string; images: string[] }>();
  /** Pages linked from the live build, with its record of them. */
  const reused = new Map<string, { entry: PageRecord; reads: string[] }>();
  // What the manifest lists without reading the folder back: files written here (hashed by the writer
  // threads) and files linked from the live build (its manifest has them).
  const written = new Map<string, FileDigest>();
  const linkedFromLive = new Set<string>();
  const recycled = options.recycled;
  const writer = new CompressedWriter({ replace: Boolean(recycled) });
  // Renders do not wait for their files: up to MAX_PENDING_WRITES queue on the writer threads.
  const pendingWrites = new Set<Promise<void>>();
  let writeFailure: Error | null = null;
  // A function, so each call reads the variable the write callbacks set (not a narrowed copy).
  const rethrowWriteFailure = (): void => {
    if (writeFailure) throw writeFailure;
  };
  /** Queues `body` for the writer threads; `move`: see `CompressedWriter.write`. */
  async function writeCompressed(file: string, body: Uint8Array | string, move = false): Promise<void> {
    while (pendingWrites.size >= MAX_PENDING_WRITES) await Promise.race(pendingWrites);
    rethrowWriteFailure();
    const write: Promise<void> = writer.write(file, body, PAGE_COMPRESSION, { move }).then(
      (files) => {
        pendingWrites.delete(write);
        for (const { file: name, size, sha256 } of files)
          written.set(detached(path.relative(root, name)), { size, sha256 });
      },
      (error: unknown) => {
        pendingWrites.delete(write);
        writeFailure ??=
          error instanceof Error ? error : new Error('A snapshot file could not be written', { cause: error });
      },
    );
    pendingWrites.add(write);
  }

  async function renderOne(page: SnapshotPage): Promise<void> {
    const answer = await options.render(page.path);
    const body = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.length);
    if (answer.status >= 500)
      throw new Error(`Snapshot of ${page.path} failed with ${answer.status}: ${body.toString().slice(0, 300)}`);
    if (answer.status !== 200) {
      skipped.push(`${page.path} (${answer.status})`);
      return;
    }
    const isHtml = answer.contentType.includes('text/html');
    const file = pageFile(root, page.path, isHtml ? 'index.html' : 'index');
    const files = writtenFiles(file, body.length, PAGE_COMPRESSION);
    const content = createHash('sha256').update(body);
    const images = isHtml ? [...new Set(derivativeUrlsIn(body.toString()))].map(derivative) : [];
    // The page's bytes go to the thread as they are: nothing reads them after this.
    await writeCompressed(file, answer.body, true);
    if (isHtml) {
      const payload = await options.inputs.during(page.path, () => page.payload());
      if (payload !== null) {
        const json = Buffer.from(JSON.stringify(payload));
        const payloadFile = pageFile(root, page.path, '_payload.json');
        files.push(...writtenFiles(payloadFile, json.length, PAGE_COMPRESSION));
        content.update('\0_payload.json\0').update(json);
        await writeCompressed(payloadFile, json);
      }
    }
    rendered.set(page.path, {
      files: files.map((name) => detached(path.relative(root, name))),
      counted: COUNTED_PAGE_FILES.has(path.basename(file)),
      content: content.digest('base64url'),
      images,
    });
  }

  /** Links an unchanged page's files from the live build; false when one is gone (then it is rendered). */
  async function reuseOne(page: SnapshotPage, kept: { entry: PageRecord; reads: string[] }): Promise<boolean> {
    const from = options.reuse!.from;
    // The record's names are relative paths this code wrote (`path.relative`): joined without normalising
    // again, which was a tenth of deciding for 60,000 files.
    const links = kept.entry.files
      .filter((name) => !recycled?.kept.has(name))
      .map((name) => ({ existing: `${from}/${name}`, file: `${root}/${name}` }));
    const linked = async () => {
      // A recycled folder's other files are deleted first: a link must not find one at its path.
      await recycled?.cleared;
      await writer.link(links);
    };
    const failed =
      links.length === 0
        ? null
        : await linked().then(
            () => null,
            (error: unknown) => error as NodeJS.ErrnoException,
          );
    if (failed) {
      if (failed.code !== 'ENOENT') throw failed;
      // The live build lost a file (pruned after two switches meanwhile): render the page instead, into
      // files of its own (writing through a link would change the other build's file too).
      await Promise.all(kept.entry.files.map((name) => rm(path.join(root, name), { force: true })));
      return false;
    }
    for (const name of kept.entry.files) linkedFromLive.add(name);
    reused.set(page.path, kept);
    // Its images are the build's too: kept in the folder for static hosts like a rendered page's (ADR 212).
    for (const url of kept.entry.images) derivative(url);
    return true;
  }

  // Set when a page failed: the other workers stop taking pages, so nothing writes into the build
  // folder once it is being removed.
  let stopped = false;
  const pageDone = () => {
    done += 1;
    options.onProgress?.(done, total);
  };
  /** Pages to render: those the live build has not got unchanged, and those whose files it lost. */
  const toRender: SnapshotPage[] = [];
  const linking: Promise<void>[] = [];
  /**
   * Links each unchanged page without waiting for it, so the writer threads get the links of thousands of
   * pages at once (a 10,000-page build that awaited each page's links took 3 s to link them); the rest wait
   * for `render`. Pages are counted as they are listed.
   */
  async function sortPages(queue: PageQueue): Promise<void> {
    for (let item = await queue.next(); !stopped && !item.done; item = await queue.next()) {
      total += 1;
      const page = item.value;
      const kept = await options.reuse?.unchanged(page.path);
      if (!kept) toRender.push(page);
      else
        linking.push(
          reuseOne(page, kept).then(
            (linked) => (linked ? pageDone() : void toRender.push(page)),
            (error: unknown) => {
              writeFailure ??=
                error instanceof Error
                  ? error
                  : new Error('A page of the live build could not be linked', { cause: error });
              stopped = true;
            },
          ),
        );
    }
  }
  async function render(queue: PageQueue): Promise<void> {
    for (let item = await queue.next(); !stopped && !item.done; item = await queue.next()) {
      await renderOne(item.value);
      pageDone();
    }
  }
  /** Every phase's workers, awaited before a failed build's folder is removed. */
  const running: Promise<unknown>[] = [];
  // Made on the writer threads while the catalog is still listed: a folder costs the disk more than the
  // links into it (docs/decisions/211-incremental-builds.md).
  const liveFolders = options.reuse?.folders() ?? [];
  const foldersMade = writer.makeFolders(
    liveFolders.filter((folder) => !recycled?.folders.has(folder)).map((folder) => `${root}/${folder}`),
  );
  foldersMade.catch(() => undefined); // awaited once the pages are listed
  running.push(foldersMade);
  if (recycled) running.push(recycled.cleared);
  const concurrently = (
    work: (queue: PageQueue) => Promise<void>,
    pages: Iterable<SnapshotPage> | AsyncIterable<SnapshotPage>,
  ) => {
    const queue = Symbol.asyncIterator in pages ? pages[Symbol.asyncIterator]() : pages[Symbol.iterator]();
    const workers = Array.from({ length: options.concurrency ?? 8 }, () => work(queue));
    running.push(...workers);
    return Promise.all(workers);
  };

  try {
    // Pages are sorted as they are listed: each thread makes its share of the folders before the links
    // sent after them, while the main thread goes on listing (docs/decisions/211-incremental-builds.md).
    await concurrently(sortPages, options.pages);
    await foldersMade;
    await Promise.all(linking);
    await recycled?.cleared;
    rethrowWriteFailure();
    await concurrently(render, toRender);
    options.onRendered?.();
    await Promise.all(pendingWrites);
    rethrowWriteFailure();
    const kept = await makeDerivatives(
      options.baseUrl,
      [...derivatives.keys()],
      options.site && { root, images: options.site.images },
    );
    await writeRecord(options.buildsDir, id, fillRecord(options, rendered, reused, options.reuse));
    const timestamp = Date.now();
    await writeCompressed(path.join(root, 'builds', 'latest.json'), JSON.stringify({ id, timestamp }));
    await writeCompressed(
      path.join(root, 'builds', 'meta', `${id}.json`),
      JSON.stringify({ id, timestamp, pages: done - skipped.length, skipped, durationMs: timestamp - started }),
    );
    await Promise.all(pendingWrites);
    rethrowWriteFailure();
    // Nothing more is written through the threads: their memory goes before the manifest, the build's last
    // peak (docs/decisions/216-build-memory.md).
    await writer.close();
    // Kept files no page ended with (pages gone, or rendered to fewer files).
    if (recycled)
      await removeFiles(
        root,
        [...recycled.kept].filter((name) => !written.has(name) && !linkedFromLive.has(name)),
      );
    await removeEmptyFolders(root, recycled ? [...liveFolders, ...recycled.folders] : liveFolders, [
      ...rendered.values(),
      ...[...reused.values()].map(({ entry }) => entry),
    ]);
    if (options.site) {
      const assets = await linkClientAssets(options.site.clientDir, root);
      // Last: a build with its manifest is whole (what uploads, fetches and exports read).
      const files = [...written.keys(), ...linkedFromLive, ...assets, ...kept];
      await writeManifest(root, { ...options.site, id, written, linkedFromLive, files });
    }
  } catch (error) {
    stopped = true;
    await Promise.allSettled(running);
    await Promise.allSettled(linking);
    await Promise.allSettled(pendingWrites);
    await rm(root, { recursive: true, force: true });
    await rm(recordFile(options.buildsDir, id), { force: true });
    throw error;
  } finally {
    await writer.close();
  }
  return {
    id,
    pages: done - skipped.length,
    images: derivatives.size,
    skipped,
    reused: reused.size,
    durationMs: Date.now() - started,
  };
}

/**
 * Removes the folders made for the live build's pages that no page of this build has files in (pages gone
 * since), and their parents up to the first that holds anything else (which `rmdir` refuses).
 */
async function removeEmptyFolders(root: string, made: readonly string[], pages: { files: string[] }[]): Promise<void> {
  const used = new Set(pages.flatMap((page) => page.files.map((file) => path.dirname(file))));
  const removed = (folder: string) =>
    rmdir(path.join(root, folder)).then(
      () => true,
      () => false,
    );
  for (const folder of made.filter((candidate) => !used.has(candidate))) {
    let at = folder;
    while (at !== '.' && (await removed(at))) at = path.dirname(at);
  }
}

/** The build's record: each page's files, reads and content, rendered or reused (src/front/build-record.ts). */
function fillRecord(
  options: Required<Pick<SnapshotOptions, 'inputs' | 'record'>>,
  rendered: ReadonlyMap<string, { files: string[]; counted: boolean; content: string; images: string[] }>,
  reused: ReadonlyMap<string, { entry: PageRecord; reads: string[] }>,
  reuse: PageReuse | undefined,
): BuildRecord {
  const { record, inputs } = options;
  const keyIndex = new Map<string, number>();
  const indexOf = (key: string) => {
    let index = keyIndex.get(key);
    if (index === undefined) {
      keyIndex.set(key, (index = record.keys.length));
      record.keys.push(key);
      // Every key a page of this build read was asked for, or taken as unchanged from the live build.
      record.hashes.push(inputs.answer(key) ?? reuse?.takenHash(key) ?? 'unread');
    }
    return index;
  };
  for (const [page, { entry, reads }] of reused) record.pages[page] = { ...entry, reads: reads.map(indexOf) };
  for (const [page, { files, counted, content, images }] of rendered) {
    const reads = inputs.readsOf(page);
    record.pages[page] = {
      files,
      reads: [...reads].map(indexOf),
      // A page that read nothing the memo saw (an API elsewhere) can never be told unchanged.
      inputs: reads.size > 0 ? inputsHash(reads, (key) => inputs.answer(key)) : null,
      content: counted ? content : null,
      images,
    };
  }
  record.requestHeaders = inputs.requestHeaders ?? record.requestHeaders;
  return record;
}

/**
 * Asks the front for every image derivative the pages offer, so the first shopper (and Lighthouse) finds
 * each one made (docs/decisions/184-responsive-image-derivatives.md). Kept ones are found in the cache; an
 * image that cannot be processed answers a redirect to its original, which is what shoppers get too.
 * Answers the files kept in the build folder (`keep`), relative to it.
 */
async function makeDerivatives(
  baseUrl: string,
  urls: string[],
  keep?: { root: string; images: ImageDerivatives },
): Promise<string[]> {
  const kept: string[] = [];
  const fetchOriginal = (original: string) => fetch(new URL(original, baseUrl), { redirect: 'manual' });
  // Two at a time: encoding is CPU work, and the renders are done.
  await eachAtMost(urls, 2, async (url) => {
    const response = await fetch(new URL(url, baseUrl), { method: 'HEAD', redirect: 'manual' });
    if (response.status >= 500) throw new Error(`Image derivative ${url} failed with ${response.status}`);
    // The build keeps what the front answered, for static hosts (docs/decisions/212-builds-as-static-artifacts.md).
    if (keep) kept.push(...(await keepDerivative(keep.root, url, response, keep.images, fetchOriginal)));
  });
  return kept;
}
