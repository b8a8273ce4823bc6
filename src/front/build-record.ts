/**
 * The record a snapshot build keeps beside its folder (`{BUILDS_DIR}/{id}.pages.json`) so the next build
 * can reuse its unchanged pages (docs/decisions/211-incremental-builds.md): what code and settings it was
 * rendered with, and for each page its files, the API answers it was made from and a hash of its content.
 * It sits beside the folder, not in it: a build folder is the static site a host serves as it is.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BuildChanges } from '../lib/contract/answers.ts';

/** Bumped whenever what a record means changes: a record of another version is not used. */
const RECORD_VERSION = 3;
const RECORD_SUFFIX = '.pages.json';

export type PageRecord = {
  /** The page's files relative to the build folder: the page, its payload, their compressed copies. */
  files: string[];
  /** Indices into the record's `keys`: the API paths its render and payload loader read. */
  reads: number[];
  /** `inputsHash` of those reads; null when it cannot be told unchanged (it read nothing the memo saw). */
  inputs: string | null;
  /** A hash of its page and payload bytes; null for files the build history does not count (the sitemap). */
  content: string | null;
  /** The image derivative URLs the page offers: a reused page's are kept in the new build too (ADR 212). */
  images: string[];
};

export type BuildRecord = {
  version: typeof RECORD_VERSION;
  /** Code and settings the pages were rendered with (`renderFingerprint`). */
  fingerprint: string;
  /** The headers of the renders' API calls, to ask for the same answers again. */
  requestHeaders: [string, string][];
  keys: string[];
  /** The hash of each key's answer, by the same index (what an unchanged product's reads are taken as). */
  hashes: string[];
  /**
   * Where the catalog's changes stood before the build read anything (src/server/publishing/catalog-changes.ts):
   * the next build asks what was written since. Null when not known.
   */
  changesStart: string | null;
  /** The public stores whose pages it holds, in the order they were listed. */
  stores: string[];
  pages: Record<string, PageRecord>;
};

/** Where build `id`'s record is kept. */
export function recordFile(buildsDir: string, id: string): string {
  return path.join(buildsDir, `${id}${RECORD_SUFFIX}`);
}

/** The build a file of BUILDS_DIR belongs to: itself for a folder, its build for a record. */
export function buildOfEntry(name: string): string {
  return name.endsWith(RECORD_SUFFIX) ? name.slice(0, -RECORD_SUFFIX.length) : name;
}

/** Pieces of JSON written before the file is given more: large enough that writes stay few. */
const RECORD_PIECE_CHARS = 1 << 16;

/** `record` as JSON, a few pages at a time. */
function* recordJson(record: BuildRecord): Generator<string> {
  const { pages, ...head } = record;
  let piece = `${JSON.stringify(head).slice(0, -1)},"pages":{`;
  let first = true;
  for (const [page, entry] of Object.entries(pages)) {
    piece += `${first ? '' : ','}${JSON.stringify(page)}:${JSON.stringify(entry)}`;
    first = false;
    if (piece.length >= RECORD_PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}}}`;
}

/**
 * Writes build `id`'s record a few pages at a time: as one string, the 76 MB record of a 100,000-page build
 * and its UTF-8 copy were that build's highest memory (docs/decisions/216-build-memory.md).
 */
export async function writeRecord(buildsDir: string, id: string, record: BuildRecord): Promise<void> {
  await pipeline(Readable.from(recordJson(record)), createWriteStream(recordFile(buildsDir, id)));
}

/** Build `id`'s record, or null when it has none of this version (a build of older code, or none). */
export async function readRecord(buildsDir: string, id: string): Promise<BuildRecord | null> {
  try {
    const record = JSON.parse(await readFile(recordFile(buildsDir, id), 'utf8')) as Partial<BuildRecord>;
    return record.version === RECORD_VERSION ? (record as BuildRecord) : null;
  } catch {
    return null;
  }
}

/** A new, empty record for a build rendered with `fingerprint`. */
export function newRecord(
  fingerprint: string,
  from: Pick<BuildRecord, 'changesStart' | 'stores'> = { changesStart: null, stores: [] },
): BuildRecord {
  return { version: RECORD_VERSION, fingerprint, requestHeaders: [], keys: [], hashes: [], ...from, pages: {} };
}

/**
 * What decides a page's bytes besides its API answers: the Astro build (its server bundle, which holds
 * every page and loader) and the settings pages are rendered with. Another fingerprint means a full build.
 */
export async function renderFingerprint(
  code: string | { distDir: string },
  settings: Record<string, unknown>,
): Promise<string> {
  const hash = createHash('sha256');
  if (typeof code === 'string') hash.update(code);
  else {
    const server = path.join(code.distDir, 'server');
    const files = (await readdir(server, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    for (const file of files)
      hash
        .update(path.relative(server, file))
        .update('\0')
        .update(await readFile(file));
  }
  hash.update('\0').update(JSON.stringify(settings));
  return hash.digest('base64url');
}

/**
 * Pages added, changed and removed from one record to the next (docs/decisions/208-preview-and-live-build.md):
 * pages by their content hash, the sitemap not counted.
 */
export function recordChanges(before: BuildRecord, after: BuildRecord): BuildChanges {
  const counted = (record: BuildRecord) =>
    new Map(
      Object.entries(record.pages).flatMap(([page, entry]) => (entry.content === null ? [] : [[page, entry.content]])),
    );
  const old = counted(before);
  const now = counted(after);
  let added = 0;
  let changed = 0;
  for (const [page, content] of now) {
    const was = old.get(page);
    if (was === undefined) added += 1;
    else if (was !== content) changed += 1;
  }
  const removed = [...old.keys()].filter((page) => !now.has(page)).length;
  return { added, changed, removed };
}
