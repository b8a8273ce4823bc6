import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_TYPES, IMAGE_EXTENSIONS } from '../../lib/content-types.ts';
import { isSlug } from '../../lib/slug.ts';
import type { MediaStorage, StagedMedia, StoredMedia } from './media-storage.ts';

/**
 * A store's own media (product images, favicon) outside `public/`: `{MEDIA_DIR}/{slug}/{name}`, reached
 * at `/{slug}/media/{name}` and served by the front only to a shopper the API lets see the store, like
 * its pages (docs/decisions/120-restricted-store-media.md). The one module that knows where media live
 * and what they may be called: the demo image script and the console's uploads
 * (docs/decisions/201-console-product-images.md) write through it.
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

export type MediaFile = StoredMedia & {
  file: string;
  mtimeMs: number;
};

/** The media folder: files are looked up on every request (uploads replace them), never cached here. */
export class MediaFolder implements MediaStorage {
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
      return {
        file,
        size: found.size,
        mtimeMs: found.mtimeMs,
        version: `${found.size.toString(36)}-${Math.floor(found.mtimeMs).toString(36)}`,
        type: CONTENT_TYPES[path.extname(name).toLowerCase()]!,
        read: async () => new Uint8Array(await readFile(file)),
      };
    } catch {
      return null;
    }
  }

  /** Writes a store's media file and answers its URL; a reader sees the old file or the new one, never half. */
  async write(slug: string, name: string, data: string | Uint8Array): Promise<string> {
    const staged = await this.stage(slug, name, data);
    return staged.place();
  }

  /**
   * Writes a file under a temporary name that is never served (it starts with a dot): `place()` moves it
   * to `name` and answers its URL, `discard()` deletes it. An upload places its file only once its row is
   * written, and discards it when the row is not (docs/decisions/201-console-product-images.md).
   */
  async stage(slug: string, name: string, data: string | Uint8Array): Promise<StagedMedia> {
    const folder = this.#folder(slug, name);
    await mkdir(folder, { recursive: true });
    const temporary = path.join(folder, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temporary, data);
    const final = path.join(folder, name);
    return {
      place: async () => {
        await rename(temporary, final);
        return mediaUrl(slug, name);
      },
      discard: () => rm(temporary, { force: true }),
    };
  }

  /** Deletes a store's media file (nothing when there is none). */
  async remove(slug: string, name: string): Promise<void> {
    await rm(path.join(this.#folder(slug, name), name), { force: true });
  }

  #folder(slug: string, name: string): string {
    if (!isSlug(slug) || !isMediaName(name)) throw new Error(`Not a store media file: ${JSON.stringify(`${slug}/${name}`)}`);
    return path.join(this.root, slug);
  }
}
