import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { CONTENT_TYPES } from '../lib/content-types.ts';
import type { DerivativeRequest } from '../lib/responsive-image.ts';
import { sendEntry } from './static-files.ts';

// Derivatives live in our own cache files; libvips' operation cache would hold the same pixels again.
sharp.cache(false);

const ENCODE = {
  // Effort 2: a third of the default's time for files ≈ 30 % larger (figures in ADR 184).
  avif: (image: Sharp) => image.avif({ quality: 60, effort: 2 }),
  webp: (image: Sharp) => image.webp({ quality: 80 }),
} as const;

/** Source versions whose hash is remembered; beyond it the memo starts over (a re-read costs one hash). */
const MAX_REMEMBERED_HASHES = 20_000;

/** The largest source the front rasterises or decodes (pixels): bigger uploads are shown as they are. */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Makes and keeps AVIF/WebP derivatives of local images (docs/decisions/184-responsive-image-derivatives.md):
 * made on first request (the snapshot build asks for every one its pages offer), then read from
 * `IMAGE_CACHE_DIR`. A cache file is named by the source's content, so a replaced upload gets new
 * derivatives while the same picture copied anew (every `astro build` copies `public/`) keeps its own. The folder is never served as such: a derivative is reached only
 * through its original's URL, after that original's own access check.
 */
export class ImageDerivatives {
  readonly root: string;
  readonly #making = new Map<string, Promise<string | null>>();
  /** Content hashes by path, size and modification time: a source is read and hashed once per version. */
  readonly #hashes = new Map<string, string>();

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /**
   * A local copy of an original kept elsewhere (the media bucket), by its key and version: fetched once per
   * version, so its derivatives are made as a local original's are (docs/decisions/205-s3-media-storage.md).
   */
  async localCopy(key: string, version: string, read: () => Promise<Uint8Array>): Promise<string> {
    const name = createHash('sha256').update(`${key}\0${version}`).digest('hex').slice(0, 40);
    const file = path.join(this.root, 'originals', name.slice(0, 2), `${name}${path.extname(key)}`);
    if (await exists(file)) return file;
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, await read());
    await rename(temporary, file);
    return file;
  }

  /** The cache file of a derivative of `source`, made now if needed; null when the source cannot be processed. */
  async derive(source: string, request: DerivativeRequest): Promise<string | null> {
    let found;
    try {
      found = await stat(source);
    } catch {
      return null;
    }
    const hash = await this.#contentHash(source, `${source}\0${found.size}\0${found.mtimeMs}`);
    if (!hash) return null;
    const file = path.join(this.root, hash.slice(0, 2), `${hash}-${request.width}.${request.format}`);
    if (await exists(file)) return file;
    const making = this.#making.get(file);
    if (making) return making;
    const work = this.#make(source, file, request).finally(() => this.#making.delete(file));
    this.#making.set(file, work);
    return work;
  }

  /**
   * The cache file behind a derivative answer's ETag (`sendDerivative` names it after the file), so a build
   * links the very file the front sends; null for any other ETag.
   */
  cacheFileOf(etag: string, format: DerivativeRequest['format']): string | null {
    const match = /^"([0-9a-f]{40})-(\d+)"$/.exec(etag);
    return match ? path.join(this.root, match[1]!.slice(0, 2), `${match[1]}-${match[2]}.${format}`) : null;
  }

  async #contentHash(source: string, version: string): Promise<string | null> {
    const known = this.#hashes.get(version);
    if (known) return known;
    let hash: string;
    try {
      hash = createHash('sha256')
        .update(await readFile(source))
        .digest('hex')
        .slice(0, 40);
    } catch {
      return null;
    }
    if (this.#hashes.size >= MAX_REMEMBERED_HASHES) this.#hashes.clear();
    this.#hashes.set(version, hash);
    return hash;
  }

  async #make(source: string, file: string, { width, format }: DerivativeRequest): Promise<string | null> {
    try {
      const meta = await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      // A vector source is drawn at the size asked for (sharp reads SVG at 72 dpi): sharp at every width.
      const density = meta.format === 'svg' && meta.width ? Math.min(2400, (72 * width) / meta.width) : undefined;
      const image = sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, ...(density ? { density } : {}) })
        .rotate()
        .resize({ width, withoutEnlargement: meta.format !== 'svg' });
      const data = await ENCODE[format](image).toBuffer();
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, data);
      await rename(temporary, file);
      return file;
    } catch {
      // Not an image sharp can read (or too large): the caller sends the original instead.
      return null;
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * Answers a derivative of the file behind `original`: the cache file with the original's cache policy,
 * or — when the source cannot be processed — a redirect to the original, so an image is never broken.
 */
export async function sendDerivative(
  req: IncomingMessage,
  res: ServerResponse,
  options: {
    images: ImageDerivatives;
    source: string;
    request: DerivativeRequest;
    /** The original's URL path (and the redirect target). */
    original: string;
    cacheControl: string;
  },
): Promise<void> {
  const file = await options.images.derive(options.source, options.request);
  const found = file ? await stat(file).catch(() => null) : null;
  if (!file || !found) {
    res.writeHead(302, { location: options.original, 'cache-control': 'no-store' });
    res.end();
    return;
  }
  const entry = {
    etag: `"${path.basename(file, path.extname(file))}"`,
    type: CONTENT_TYPES[`.${options.request.format}`]!,
    variants: [{ file, size: found.size, encoding: null }],
  };
  sendEntry(req, res, entry, options.original, { 'cache-control': options.cacheControl });
}
