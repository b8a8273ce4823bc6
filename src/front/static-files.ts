import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { CONTENT_TYPES } from '../lib/content-types.ts';
import { etagMatches } from '../lib/etag.ts';

/** Extensions worth compressing; the build writes a `.br` sibling (and for assets a `.gz`) for these. */
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.xml', '.webmanifest']);
/**
 * Smaller answers are sent as they are, prebuilt or rendered on demand: compressed, a few hundred bytes
 * save less than a packet, and a build's `.br` and `.gz` siblings of them were a third of the files an
 * editor's publish links (docs/decisions/211-incremental-builds.md).
 */
export const MIN_COMPRESSED_BYTES = 1024;

type Variant = {
  file: string;
  size: number;
  encoding: 'br' | 'gzip' | null;
  /** The file's bytes when small enough to keep in memory (see `memoryCacheBytes`). */
  data?: Buffer;
  /**
   * A gzip copy no build wrote (pages have only `.br`, docs/decisions/222-pages-compressed-once.md): `file`
   * is the uncompressed file, gzipped on the first ask and kept once made if the folder's memory allows
   * (`keep` counts it), else gzipped as it is sent each time.
   */
  onDemand?: { from: Variant; keep: (bytes: number) => boolean };
};

/**
 * How the front compresses what it compresses as it answers (pages rendered on demand, compress-response.ts;
 * gzip copies no build wrote, below), and snapshot pages' brotli too (compression.ts): brotli 4 costs about
 * as much CPU as gzip 6 and compresses better; gzip 6 is gzip's default, a page in about 0.1 ms.
 */
export const ON_DEMAND_COMPRESSION = { brotliQuality: 4, gzipLevel: 6 } as const;

/** Files up to this size are kept in memory: a page is answered with one write, no open/read/close. */
const MAX_CACHED_FILE_BYTES = 256 * 1024;
/** Memory one folder may use for file contents unless told (`STATIC_MEMORY_CACHE_MB`); beyond it files are streamed from disk. */
const DEFAULT_MEMORY_CACHE_BYTES = 128 * 1024 * 1024;

export type StaticEntry = {
  etag: string;
  type: string;
  variants: Variant[];
  /**
   * The headers of a 200 for each variant, made on the first answer: an entry belongs to one URL path
   * and one set of extra headers (its type decides them), so they never change.
   */
  answerHeaders?: Map<Variant, Record<string, string | number>>;
};

/** The content type the front sends a file with, by its extension (build manifests say the same). */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
}

/** How long a browser may keep a file: hashed assets forever, documents revalidated every time. */
export function cacheControlFor(urlPath: string): string {
  if (urlPath.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  if (/\.(html|json|xml|txt)$/.test(urlPath) || !path.extname(urlPath)) return 'public, max-age=0, must-revalidate';
  return 'public, max-age=3600';
}

async function statFile(file: string): Promise<Stats | null> {
  try {
    const s = await stat(file);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/**
 * Serves files below one folder with pre-compressed variants, strong ETags and 304s.
 * Lookups are cached per folder: folders are immutable once written (a new build is a new folder).
 */
export class StaticFolder {
  readonly root: string;
  readonly #entries = new Map<string, StaticEntry | null>();
  readonly #memoryCacheBytes: number;
  #cachedBytes = 0;

  constructor(root: string, options: { memoryCacheBytes?: number } = {}) {
    this.root = path.resolve(root);
    this.#memoryCacheBytes = options.memoryCacheBytes ?? DEFAULT_MEMORY_CACHE_BYTES;
  }

  /**
   * What `lookup` found for this path before, without waiting: undefined when it has not looked yet.
   * Lets the front answer a known file without a promise per step (src/front/front-server.ts).
   */
  known(urlPath: string): StaticEntry | null | undefined {
    return this.#entries.get(urlPath);
  }

  /** The file a URL path names, trying `{path}/index.html` for directory-style URLs. */
  async lookup(urlPath: string): Promise<StaticEntry | null> {
    const cached = this.#entries.get(urlPath);
    if (cached !== undefined) return cached;
    const entry = await this.#find(urlPath);
    if (this.#entries.size > 50_000) {
      this.#entries.clear();
      this.#cachedBytes = 0;
    }
    this.#entries.set(urlPath, entry);
    return entry;
  }

  async #find(urlPath: string): Promise<StaticEntry | null> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const relative = path.normalize(decoded).replace(/^(\.\.(\/|\\|$))+/, '');
    const base = path.join(this.root, relative);
    if (!base.startsWith(this.root)) return null;
    const candidates = path.extname(base) ? [base] : [path.join(base, 'index.html')];
    for (const file of candidates) {
      const s = await statFile(file);
      if (!s) continue;
      const identity: Variant = { file, size: s.size, encoding: null };
      const variants: Variant[] = [];
      if (COMPRESSIBLE.has(path.extname(file))) {
        for (const [suffix, encoding] of [
          ['.br', 'br'],
          ['.gz', 'gzip'],
        ] as const) {
          const compressed = await statFile(file + suffix);
          if (compressed) variants.push({ file: file + suffix, size: compressed.size, encoding });
        }
        if (s.size >= MIN_COMPRESSED_BYTES && !variants.some((variant) => variant.encoding === 'gzip'))
          variants.push({
            file,
            size: 0,
            encoding: 'gzip',
            onDemand: { from: identity, keep: (bytes) => this.#reserve(bytes) },
          });
      }
      variants.push(identity);
      for (const variant of variants) if (!variant.onDemand) await this.#keepInMemory(variant);
      return {
        etag: `"${s.size.toString(36)}-${Math.floor(s.mtimeMs).toString(36)}"`,
        type: contentTypeOf(file),
        variants,
      };
    }
    return null;
  }

  /** Reads a small file once; the folder never changes (a new build is a new folder), so the copy stays right. */
  async #keepInMemory(variant: Variant): Promise<void> {
    if (!this.#fits(variant.size)) return;
    try {
      variant.data = await readFile(variant.file);
      this.#cachedBytes += variant.data.length;
    } catch {
      // Vanished between stat and read: it is streamed (and fails) like any uncached file.
    }
  }
  #fits(bytes: number): boolean {
    return bytes <= MAX_CACHED_FILE_BYTES && this.#cachedBytes + bytes <= this.#memoryCacheBytes;
  }

  /** Counts `bytes` made in memory for this folder (a gzip copy), if they fit. */
  #reserve(bytes: number): boolean {
    if (!this.#fits(bytes)) return false;
    this.#cachedBytes += bytes;
    return true;
  }
}

const ACCEPTS: Record<'br' | 'gzip', RegExp> = { br: /\bbr\b/, gzip: /\bgzip\b/ };

function pickVariant(entry: StaticEntry, acceptEncoding: string): Variant {
  for (const variant of entry.variants) {
    if (variant.encoding === null) return variant;
    if (ACCEPTS[variant.encoding].test(acceptEncoding)) return variant;
  }
  // The identity variant is always last; the loop returns it.
  return entry.variants[entry.variants.length - 1]!;
}

function commonHeaders(
  entry: StaticEntry,
  urlPath: string,
  extraHeaders: Record<string, string>,
): Record<string, string | number> {
  return {
    'content-type': entry.type,
    'cache-control': cacheControlFor(urlPath),
    etag: entry.etag,
    vary: 'Accept-Encoding',
    ...extraHeaders,
  };
}

/**
 * Writes a found entry as the answer (GET/HEAD only; the caller checks the method). `extraHeaders`
 * must be the same for every answer of one entry (they are kept with it).
 */
export function sendEntry(
  req: IncomingMessage,
  res: ServerResponse,
  entry: StaticEntry,
  urlPath: string,
  extraHeaders: Record<string, string> = {},
): void {
  const variant = pickVariant(entry, req.headers['accept-encoding'] ?? '');
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch && etagMatches(ifNoneMatch, entry.etag)) {
    res.writeHead(304, commonHeaders(entry, urlPath, extraHeaders));
    res.end();
    return;
  }
  // A served page is asked for again and again: its headers are made once (the static budget, ADR 210).
  entry.answerHeaders ??= new Map();
  let headers = entry.answerHeaders.get(variant);
  if (!headers) {
    headers = commonHeaders(entry, urlPath, extraHeaders);
    if (variant.encoding) headers['content-encoding'] = variant.encoding;
    // A copy gzipped as it is streamed has no length until it is made: its headers are kept from then on.
    if (!variant.onDemand || variant.data) {
      headers['content-length'] = variant.size;
      entry.answerHeaders.set(variant, headers);
    }
  }
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  if (variant.data) res.end(variant.data);
  else if (variant.onDemand) sendGzipped(variant, variant.onDemand, res);
  else createReadStream(variant.file).pipe(res);
}

/**
 * Gzips an on-demand variant's file (from memory when the folder keeps it) as it is sent, and keeps the copy
 * once made when the folder's memory allows: a page, or a sitemap of 686 KB that gzips to 27 KB, is compressed
 * for the first gzip-only client, not for each one. Until then its answers have no length.
 */
function sendGzipped(variant: Variant, { from, keep }: NonNullable<Variant['onDemand']>, res: ServerResponse): void {
  const gzip = createGzip({ level: ON_DEMAND_COMPRESSION.gzipLevel });
  const chunks: Buffer[] = [];
  let bytes = 0;
  gzip.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes <= MAX_CACHED_FILE_BYTES) chunks.push(chunk);
  });
  // Kept once the copy is whole (before the answer's last bytes leave): the next ask finds it.
  gzip.once('end', () => {
    // Two first asks at once make it twice; the first to finish keeps its copy.
    if (variant.data || bytes > MAX_CACHED_FILE_BYTES || !keep(bytes)) return;
    variant.data = Buffer.concat(chunks);
    variant.size = variant.data.length;
  });
  const source = from.data ? Readable.from([from.data]) : createReadStream(variant.file);
  // A failed read ends the answer early; the client sees it cut short, as with a streamed file.
  pipeline(source, gzip, res, () => undefined);
}
