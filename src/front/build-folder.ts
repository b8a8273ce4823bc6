/**
 * Makes a build folder a complete static site (docs/decisions/212-builds-as-static-artifacts.md): the
 * Astro client assets and the image derivatives its pages offer are hard-linked into it (never copied: ten
 * kept builds share one copy of each file), and a public store's own media are written into it.
 */
import { link, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { derivativeFilePath, parseDerivativeQuery } from '../lib/responsive-image.ts';
import { parseMediaUrl } from '../server/media/media-folder.ts';
import { filesUnder } from './build-manifest.ts';
import type { ImageDerivatives } from './image-derivatives.ts';

/** Hard-links `source` to `target` (a folder of the build); a file already there (a page) wins. */
async function linkInto(source: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  await linkFile(source, target);
}

/** `linkInto` in a folder that exists. */
async function linkFile(source: string, target: string): Promise<void> {
  try {
    await link(source, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code === 'EXDEV')
      throw new Error(
        `Cannot hard-link ${source} into the build: BUILDS_DIR must be on the same file system as DIST_DIR and IMAGE_CACHE_DIR`,
        { cause: error },
      );
    throw error;
  }
}

/**
 * Links every file of Astro's client output (`DIST_DIR/client`) into the build; none when there is no output.
 * Answers the files, relative to the build folder, for its manifest.
 */
export async function linkClientAssets(clientDir: string, root: string): Promise<string[]> {
  const exists = await stat(clientDir).catch(() => null);
  if (!exists?.isDirectory()) return [];
  const files = await filesUnder(clientDir);
  // Each folder made once, then every link at once: one file after the other, a thousand assets took a
  // tenth of an editor's publish (docs/performance.md).
  const folders = new Set(files.map((file) => path.dirname(path.join(root, file))));
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  await Promise.all(files.map((file) => linkFile(path.join(clientDir, file), path.join(root, file))));
  return files;
}

/** A file path under the build folder for a URL path (percent-decoded, never outside it). */
function fileFor(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const file = path.join(root, path.normalize(decoded));
  return file.startsWith(root + path.sep) ? file : null;
}

/**
 * Puts the answers the front gave for derivative URLs into the build: `answer` is what the front answered
 * the URL (asked before the build goes live). A made derivative is linked from the image cache at its
 * file path; a store's original is written beside it, as a static host must serve it too. Answers the
 * files of the build this puts there (or finds there), relative to it, for its manifest.
 */
export async function keepDerivative(
  root: string,
  url: string,
  answer: Response,
  images: ImageDerivatives,
  fetchOriginal: (original: string) => Promise<Response>,
): Promise<string[]> {
  const [original = '', query = ''] = url.split('?');
  const request = parseDerivativeQuery(new URLSearchParams(query));
  if (!request || request === 'invalid') return [];
  const placed: string[] = [];
  const cached = answer.status === 200 ? images.cacheFileOf(answer.headers.get('etag') ?? '', request.format) : null;
  const target = fileFor(root, derivativeFilePath(original, request.width, request.format));
  if (cached && target) {
    await linkInto(cached, target);
    placed.push(path.relative(root, target));
  }
  const media = parseMediaUrl(original) ? fileFor(root, original) : null;
  if (media) {
    if (!(await stat(media).catch(() => null))) {
      const response = await fetchOriginal(original);
      if (response.status !== 200) throw new Error(`Media file ${original} answered ${response.status}`);
      await mkdir(path.dirname(media), { recursive: true });
      await writeFile(media, Buffer.from(await response.arrayBuffer()));
    }
    placed.push(path.relative(root, media));
  }
  return placed;
}
