import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_TYPES, IMAGE_EXTENSIONS } from '../../lib/content-types.ts';
import { isSlug } from '../../lib/slug.ts';

/**
 * A store's own media (product images, favicon) outside `public/`: `{MEDIA_DIR}/{slug}/{name}`, reached
 * at `/{slug}/media/{name}` and served by the front only to a shopper the API lets see the store, like
 * its pages (docs/decisions/120-restricted-store-media.md). The one module that knows where media live
 * and what they may be called: the demo image script writes through it, the operator console will too.
 */

/** Letters, digits, dots, hyphens and underscores; no leading dot, no '..', no slash: a name never leaves its folder. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** True for a file name a store's media may have (and an image extension we serve). */
export function isMediaName(name: string): boolean {
  return NAME.test(name) && !name.includes('..') && IMAGE_EXTENSIONS.includes(path.extname(name).toLowerCase());
}


/** The address of a store's media file: what a catalog puts in its images and favicon_url. */
export function mediaUrl(slug: string, name: string): string {
  return `/${slug}/media/${name}`;
}

/** `/{slug}/media/{name}` (percent-encoded as in a request) → its slug and name; anything else → null. */
export function parseMediaUrl(pathname: string): { slug: string; name: string } | null {
  const match = /^\/([^/]+)\/media\/([^/]+)$/.exec(pathname);
  if (!match) return null;
  let slug: string;
  let name: string;
  try {
    slug = decodeURIComponent(match[1]!);
    name = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  return isSlug(slug) && isMediaName(name) ? { slug, name } : null;
}

export type MediaFile = {
  file: string;
  size: number;
  mtimeMs: number;
  type: string;
}

/** The media folder: files are looked up on every request (uploads replace them), never cached here. */
export class MediaFolder {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file a store's media name stands for, or null when there is none (or the name is not one). */
  async find(slug: string, name: string): Promise<MediaFile | null> {
    if (!isSlug(slug) || !isMediaName(name)) return null;
    const file = path.join(this.root, slug, name);
    try {
      const found = await stat(file);
      if (!found.isFile()) return null;
      return { file, size: found.size, mtimeMs: found.mtimeMs, type: CONTENT_TYPES[path.extname(name).toLowerCase()]! };
    } catch {
      return null;
    }
  }

  /** Writes a store's media file and answers its URL; a reader sees the old file or the new one, never half. */
  async write(slug: string, name: string, data: string | Uint8Array): Promise<string> {
    if (!isSlug(slug) || !isMediaName(name)) throw new Error(`Not a store media file: ${JSON.stringify(`${slug}/${name}`)}`);
    const folder = path.join(this.root, slug);
    await mkdir(folder, { recursive: true });
    const temporary = path.join(folder, `.${name}.${process.pid}.${Date.now()}.tmp`);
    await writeFile(temporary, data);
    await rename(temporary, path.join(folder, name));
    return mediaUrl(slug, name);
  }
}
