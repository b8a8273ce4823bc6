/**
 * An incremental build's folder made of the spare, a pruned build kept for it, instead of a new one
 * (docs/decisions/220-recycled-build-folders.md): the spare already has nearly every folder of the live
 * build and, in them, files with the live build's bytes, so the build patches a few pages where it would
 * make 10,000 folders and link 40,000 files.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { eachAtMost } from '../lib/each-at-most.ts';
import type { BuildPointer } from './build-pointer.ts';
import { HEADERS_FILE, manifestObjects, manifestOf, type BuildManifest, type FileDigest } from './build-manifest.ts';
import type { BuildRecord } from './build-record.ts';

/** What a recycled folder holds when the build starts putting its files in it. */
export type RecycledFolder = {
  /** Page files of the live build found in it with the same bytes at the same path: a reused page needs no link for them. */
  kept: ReadonlySet<string>;
  /** Its folders, relative, which need not be made. */
  folders: ReadonlySet<string>;
  /**
   * Settles once every file not kept is deleted: awaited before the build writes or links a file, and not
   * before, so the deleting goes on while the catalog is listed.
   */
  cleared: Promise<void>;
};

/** Files removed at once: deleting is disk work, and the threads of the libuv pool are shared. */
const REMOVALS_AT_ONCE = 16;

/**
 * Takes the spare as build `id`'s folder and keeps, of its files, only the pages' files whose bytes the live
 * build has at the same path (both manifests say so); every other file is deleted before the build writes
 * or links any (`cleared`), so nothing it writes or links can land on a file it does not own (a hard link
 * shared with another build). Undefined when there is no spare, or when it has less than half the live
 * build's page files (a build of other code or settings): then a new folder is made, and the next prune
 * deletes the spare.
 */
export async function recycleSpare(
  builds: BuildPointer,
  id: string,
  live: { root: string; record: BuildRecord },
): Promise<RecycledFolder | undefined> {
  const spareRoot = await builds.spare();
  if (!spareRoot) return undefined;
  const [spare, liveManifest] = await Promise.all([manifestOf(spareRoot), manifestOf(live.root)]);
  if (!spare || !liveManifest) return undefined;
  const pageFiles = new Set(Object.values(live.record.pages).flatMap((entry) => entry.files));
  const kept = new Set(sameBytes(spare, liveManifest).filter((name) => pageFiles.has(name)));
  if (kept.size < pageFiles.size / 2 || !(await builds.takeSpare(spareRoot, id))) return undefined;
  const root = path.join(builds.buildsDir, id);
  const spareFiles = manifestObjects(spare).map((object) => object.path);
  const removed = spareFiles.filter((name) => !kept.has(name));
  removed.push(HEADERS_FILE);
  const cleared = removeFiles(root, removed);
  cleared.catch(() => undefined); // awaited by the build, which fails with it
  // Deleting files leaves their folders: every folder of a file the manifest listed is still there.
  const folders = new Set(spareFiles.map((name) => path.posix.dirname(name)));
  folders.delete('.');
  return { kept, folders, cleared };
}

/** Deletes `names` (relative to `root`) from a recycled folder; one already gone is no error. */
export async function removeFiles(root: string, names: readonly string[]): Promise<void> {
  await eachAtMost(names, REMOVALS_AT_ONCE, (name) => rm(path.join(root, name), { force: true }));
}

const sameDigest = (a: FileDigest | undefined, b: FileDigest | undefined) =>
  b !== undefined && a?.size === b.size && a.sha256 === b.sha256;

/**
 * The files (and compressed variants) two manifests list at the same path with the same size and SHA-256.
 * Both list their files sorted by path (`writeManifest`), so they are walked side by side: a map of each by
 * path cost a 10,000-page publish about 0.1 s.
 */
function sameBytes(a: BuildManifest, b: BuildManifest): string[] {
  const same: string[] = [];
  let j = 0;
  for (const file of a.files) {
    while (j < b.files.length && b.files[j]!.path < file.path) j += 1;
    const other = b.files[j];
    if (other?.path !== file.path) continue;
    if (sameDigest(file, other)) same.push(file.path);
    if (sameDigest(file.encodings.br, other.encodings.br)) same.push(`${file.path}.br`);
    if (sameDigest(file.encodings.gzip, other.encodings.gzip)) same.push(`${file.path}.gz`);
  }
  return same;
}
