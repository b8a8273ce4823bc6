/**
 * `npm run export -- --build ID --out DIR` (docs/decisions/212-builds-as-static-artifacts.md): one kept
 * build, as its manifest lists it, with `_headers` and the manifest, into a folder a static host serves.
 * Copied, not linked: the folder is usually handed to another machine or file system.
 */
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { BuildPointer } from './build-pointer.ts';
import { HEADERS_FILE, MANIFEST_FILE, manifestObjects, readManifest } from './build-manifest.ts';

/** Why an export was refused, in a sentence for the command line. */
export class ExportRefused extends Error {}

export async function exportBuild(options: { buildsDir: string; id: string; out: string }): Promise<{ files: number }> {
  const { id } = options;
  const buildsDir = path.resolve(options.buildsDir);
  const out = path.resolve(options.out);
  if (!(await new BuildPointer(buildsDir).has(id))) throw new ExportRefused(`There is no build ${id} in ${buildsDir}.`);
  const root = path.join(buildsDir, id);
  const manifest = await readManifest(root);
  if (!manifest)
    throw new ExportRefused(`Build ${id} has no ${MANIFEST_FILE}: it was made before builds had one; publish again.`);
  const existing = await stat(out).catch(() => null);
  if (existing && (!existing.isDirectory() || (await readdir(out)).length > 0))
    throw new ExportRefused(`${out} is not an empty folder: export into a new or empty one.`);
  const files = [...manifestObjects(manifest).map((object) => object.path), HEADERS_FILE, MANIFEST_FILE];
  for (const file of files) {
    await mkdir(path.dirname(path.join(out, file)), { recursive: true });
    await copyFile(path.join(root, file), path.join(out, file));
  }
  return { files: files.length };
}
