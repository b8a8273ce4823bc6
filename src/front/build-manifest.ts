/**
 * A build folder's manifest (docs/decisions/212-builds-as-static-artifacts.md): every file with its size,
 * SHA-256, content type, Cache-Control and pre-compressed variants, written last, so a build whose manifest
 * is there is whole. What uploads a build, fetches it on another instance and exports it reads this list.
 */
import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eachAtMost } from '../lib/each-at-most.ts';
import { buildFileHeaders, headersFile, urlPathsOf, type BuildHeaders, type HeaderSet } from './build-headers.ts';
import { COMPRESSIBLE, contentTypeOf } from './static-files.ts';

export const MANIFEST_FILE = '_manifest.json';
export const HEADERS_FILE = '_headers';

export type FileDigest = { size: number; sha256: string };

export type ManifestFile = FileDigest & {
  /** Relative to the build folder, `/`-separated. */
  path: string;
  type: string;
  cacheControl: string;
  /** The `.br` / `.gz` siblings the front sends to clients that accept them. */
  encodings: Partial<Record<'br' | 'gzip', FileDigest>>;
};

export type BuildManifest = { id: string; files: ManifestFile[] };

const ENCODING_SUFFIXES = { br: '.br', gzip: '.gz' } as const;
const ENCODINGS = Object.entries(ENCODING_SUFFIXES) as [keyof typeof ENCODING_SUFFIXES, string][];

/** Every file below `root`, as `/`-separated paths relative to it. */
export async function filesUnder(root: string, folder = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, folder), { withFileTypes: true });
  // Folders are read at once, not one after the other: a 10,000-page build has 10,000 of them.
  const found = await Promise.all(
    entries.map(async (entry) => {
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return filesUnder(root, relative);
      return entry.isFile() ? [relative] : [];
    }),
  );
  return found.flat();
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Digests of the live build's files, reused for a file that is a hard link of the same inode. */
type Previous = { root: string; digests: Map<string, FileDigest> };

/** Where a file's digest comes from before reading it: what the build wrote or linked from the live build. */
type Known = Pick<ManifestOptions, 'written' | 'linkedFromLive'> & { previous: Previous | null };

/**
 * A file's digest without touching the disk, when the build wrote it or linked it from the live build: most
 * files of an incremental build, so the manifest awaits nothing for them.
 */
function knownDigest(relative: string, known: Known): FileDigest | undefined {
  const written = known.written?.get(relative);
  if (written) return written;
  return known.linkedFromLive?.has(relative) ? known.previous?.digests.get(relative) : undefined;
}

async function digestOf(root: string, relative: string, known: Known): Promise<FileDigest> {
  const { previous } = known;
  const file = path.join(root, relative);
  const s = await stat(file);
  const old = previous?.digests.get(relative);
  if (previous && old?.size === s.size) {
    const before = await stat(path.join(previous.root, relative)).catch(() => null);
    if (before?.ino === s.ino && before.dev === s.dev) return old;
  }
  return { size: s.size, sha256: await sha256Of(file) };
}

/** The build's manifest, or null when it has none (a build made before manifests, or one not whole). */
export async function readManifest(root: string): Promise<BuildManifest | null> {
  try {
    return JSON.parse(await readFile(path.join(root, MANIFEST_FILE), 'utf8')) as BuildManifest;
  } catch {
    return null;
  }
}

function previousDigests(manifest: BuildManifest, root: string): Previous {
  return { root, digests: new Map(manifestObjects(manifest).map((object) => [object.path, object.digest])) };
}

/** A manifest file as it is on disk: another inode, size or time means another file. */
const signatureOf = (s: Stats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;

/**
 * The digests of the manifest this process wrote last, by its file's signature: the next publish's
 * previous build is nearly always the one it wrote, and parsing a 10,000-page build's manifest again took
 * a twentieth of an editor's publish (docs/performance.md).
 */
let lastWritten: { signature: string; root: string; manifest: BuildManifest; previous?: Previous } | null = null;

async function readPreviousDigests(root: string): Promise<Previous | null> {
  const written = await lastWrittenAt(root);
  // Made when first asked, not as the manifest is written: `npm run build` never asks, and at the end of a
  // 100,000-page build the 400,000 digests by path were part of its peak (docs/decisions/216-build-memory.md).
  if (written) return (written.previous ??= previousDigests(written.manifest, root));
  const manifest = await readManifest(root);
  return manifest && previousDigests(manifest, root);
}

/** The manifest this process wrote last, when it is still `root`'s on disk. */
async function lastWrittenAt(root: string): Promise<typeof lastWritten> {
  const written = lastWritten;
  if (written?.root !== root) return null;
  const s = await stat(path.join(root, MANIFEST_FILE)).catch(() => null);
  return s && written.signature === signatureOf(s) ? written : null;
}

/** Build folder `root`'s manifest, as `readManifest` answers it; the one this process wrote last is not read again. */
export async function manifestOf(root: string): Promise<BuildManifest | null> {
  return (await lastWrittenAt(root))?.manifest ?? (await readManifest(root));
}

export type ManifestOptions = {
  id: string;
  /** The documents' security headers (CSP…) the front sends (front-server.ts `documentHeaders`). */
  documentHeaders: HeaderSet;
  /** The live build's folder: files hard-linked from it keep their digests. */
  previousRoot?: string | null;
  /** Digests of files the build wrote itself, as it wrote them (a 10,000-page build has 60,000 to read back). */
  written?: ReadonlyMap<string, FileDigest>;
  /** Files the build hard-linked from `previousRoot`: the live build's manifest has their digests. */
  linkedFromLive?: ReadonlySet<string>;
  /**
   * Every file the build put into the folder, relative to it: listed as they are, not found by reading the
   * folder back, which was most of an editor's publish's manifest time (10,000 folders) and the peak of a
   * 100,000-page build (docs/decisions/216-build-memory.md). Without it the folder is walked.
   */
  files?: Iterable<string>;
  buildHeaders?: BuildHeaders;
};

/**
 * Lists every file of the build folder `root` (`options.files`, or what a walk of it finds) and writes
 * `_headers`, then `_manifest.json` (renamed into place, last): a `.br`/`.gz` beside a compressible file is
 * its variant, not a file of its own.
 */
export async function writeManifest(root: string, options: ManifestOptions): Promise<BuildManifest> {
  const previous = options.previousRoot ? await readPreviousDigests(options.previousRoot) : null;
  const known: Known = { ...options, previous };
  const listed = options.files ? new Set(options.files) : await filesUnder(root);
  const all = [...listed].filter((file) => file !== MANIFEST_FILE && file !== HEADERS_FILE).sort();
  const present = new Set(all);
  // A `.br`/`.gz` beside a compressible file is its variant.
  const variants = new Set(
    all.filter((file) =>
      ENCODINGS.some(([, suffix]) => {
        if (!file.endsWith(suffix)) return false;
        const original = file.slice(0, -suffix.length);
        return present.has(original) && COMPRESSIBLE.has(path.extname(original));
      }),
    ),
  );
  // The files it neither wrote nor linked from the live build (assets, derivatives) are read at once, not
  // one after the other: a thousand of them awaited in turn were a third of the manifest's time.
  const read = new Map<string, FileDigest>();
  await eachAtMost(
    all.filter((relative) => !knownDigest(relative, known)),
    16,
    async (relative) => void read.set(relative, await digestOf(root, relative, known)),
  );
  const digestOfFile = (relative: string) => knownDigest(relative, known) ?? read.get(relative)!;
  const files: ManifestFile[] = [];
  const rules: { urls: string[]; headers: HeaderSet }[] = [];
  // A file's headers follow from its type, its Cache-Control and the build's own (the document headers
  // are the build's): files alike share one object, which `headersFile` reads once, not once per file.
  const headerSets = new Map<string, HeaderSet>();
  for (const relative of all) {
    if (variants.has(relative)) continue;
    const type = contentTypeOf(relative);
    const urls = urlPathsOf(relative);
    const own = buildFileHeaders(urls[0]!, type, options.documentHeaders);
    const extra = options.buildHeaders?.(urls[0]!, type) ?? {};
    const key = [type, own['cache-control'], ...Object.entries(extra).flat()].join('\n');
    let headers = headerSets.get(key);
    if (!headers) headerSets.set(key, (headers = { ...own, ...extra }));
    const encodings: ManifestFile['encodings'] = {};
    for (const [encoding, suffix] of ENCODINGS) {
      const variant = relative + suffix;
      if (variants.has(variant)) encodings[encoding] = digestOfFile(variant);
    }
    const digest = digestOfFile(relative);
    files.push({ path: relative, ...digest, type, cacheControl: headers['cache-control']!, encodings });
    rules.push({ urls, headers });
  }
  const manifest: BuildManifest = { id: options.id, files };
  await writeFile(path.join(root, HEADERS_FILE), headersFile(rules));
  const temporary = path.join(root, `.${MANIFEST_FILE}.${process.pid}.tmp`);
  await writeFile(temporary, JSON.stringify(manifest));
  await rename(temporary, path.join(root, MANIFEST_FILE));
  lastWritten = { signature: signatureOf(await stat(path.join(root, MANIFEST_FILE))), root, manifest };
  return manifest;
}

/** One file on disk that a manifest names: a listed file itself (`encoding` null) or one of its variants. */
export type ManifestObject = { path: string; digest: FileDigest; file: ManifestFile; encoding: 'br' | 'gzip' | null };

/** Every file a manifest names, with its variants (`_headers` and the manifest itself are not listed). */
export function manifestObjects(manifest: BuildManifest): ManifestObject[] {
  const objects: ManifestObject[] = [];
  for (const file of manifest.files) {
    objects.push({ path: file.path, digest: file, file, encoding: null });
    for (const [encoding, digest] of Object.entries(file.encodings) as [keyof typeof ENCODING_SUFFIXES, FileDigest][])
      objects.push({ path: file.path + ENCODING_SUFFIXES[encoding], digest, file, encoding });
  }
  return objects;
}
