/**
 * What a build changes against the live one (docs/decisions/208-preview-and-live-build.md): pages added,
 * changed and removed, by comparing each page's files by hash. A page is a folder holding `index.html`
 * (or `index`, a page that is no HTML); its `_payload.json` is part of it. Each build writes its own id
 * into its pages, so the id is taken out before hashing.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export type BuildChanges = { added: number; changed: number; removed: number };

const PAGE_FILES = new Set(['index.html', 'index', '_payload.json']);

/** Each page of build `id` (its folder, relative) and the hash of its files with the id taken out. */
async function pageHashes(buildsDir: string, id: string): Promise<Map<string, string>> {
  const root = path.join(buildsDir, id);
  let names: string[];
  try {
    names = await readdir(root, { recursive: true });
  } catch {
    return new Map();
  }
  const files = names
    .filter((name) => PAGE_FILES.has(path.basename(name)) && !name.startsWith(`builds${path.sep}`))
    .sort();
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  const pages = new Set<string>();
  for (const name of files) {
    const page = path.dirname(name);
    if (path.basename(name) !== '_payload.json') pages.add(page);
    const content = (await readFile(path.join(root, name), 'utf8')).replaceAll(id, '');
    let hash = hashes.get(page);
    if (!hash) hashes.set(page, (hash = createHash('sha256')));
    hash.update(`${path.basename(name)}\0${content}\0`);
  }
  return new Map([...pages].map((page) => [page, hashes.get(page)!.digest('hex')]));
}

/**
 * Pages of build `id` added, changed and removed against build `liveId`, read from their files: for a live
 * build without a record (src/front/build-record.ts `recordChanges` counts the others).
 */
export async function compareBuilds(buildsDir: string, liveId: string, id: string): Promise<BuildChanges> {
  const [before, after] = await Promise.all([pageHashes(buildsDir, liveId), pageHashes(buildsDir, id)]);
  let added = 0;
  let changed = 0;
  for (const [page, hash] of after) {
    const old = before.get(page);
    if (old === undefined) added += 1;
    else if (old !== hash) changed += 1;
  }
  const removed = [...before.keys()].filter((page) => !after.has(page)).length;
  return { added, changed, removed };
}
