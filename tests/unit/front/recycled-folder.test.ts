import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { BuildPointer } from '../../../src/front/build-pointer.ts';
import type { BuildManifest } from '../../../src/front/build-manifest.ts';
import { newRecord, type BuildRecord } from '../../../src/front/build-record.ts';
import { recycleSpare } from '../../../src/front/recycled-folder.ts';

/** A build folder holding `files` (path → bytes), with the manifest a snapshot writes last (sorted by path). */
async function build(root: string, files: Record<string, string>): Promise<void> {
  const listed: BuildManifest['files'] = [];
  for (const [name, body] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), body);
    const sha256 = createHash('sha256').update(body).digest('hex');
    listed.push({
      path: name,
      size: Buffer.byteLength(body),
      sha256,
      type: 'text/html',
      cacheControl: '',
      encodings: {},
    });
  }
  await writeFile(path.join(root, '_headers'), '');
  await writeFile(path.join(root, '_manifest.json'), JSON.stringify({ id: path.basename(root), files: listed }));
}

/** A live build's record naming each page's files. */
function recordOf(pages: Record<string, string[]>): BuildRecord {
  const record = newRecord('code');
  for (const [page, files] of Object.entries(pages))
    record.pages[page] = { files, reads: [], inputs: null, content: null, images: [] };
  return record;
}

const LIVE_PAGES = {
  '/acme': ['acme/index.html'],
  '/acme/product/1': ['acme/product/1/index.html'],
  '/acme/product/2': ['acme/product/2/index.html'],
};

async function files(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

test('a spare becomes the build folder holding only the live pages’ files it has with the same bytes', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'recycle-'));
  await build(path.join(dir, 'live'), {
    'acme/index.html': 'home',
    'acme/product/1/index.html': 'one',
    'acme/product/2/index.html': 'two, new price',
    '_astro/app.js': 'js',
    'builds/latest.json': '{"id":"live"}',
  });
  await build(path.join(dir, '.spare-old'), {
    'acme/index.html': 'home',
    'acme/product/1/index.html': 'one',
    'acme/product/2/index.html': 'two, old price',
    'acme/product/3/index.html': 'three, gone since',
    '_astro/app.js': 'js',
    'builds/latest.json': '{"id":"old"}',
  });
  const pointer = new BuildPointer(dir);
  const recycled = await recycleSpare(pointer, 'next', { root: path.join(dir, 'live'), record: recordOf(LIVE_PAGES) });
  expect([...recycled!.kept].sort()).toEqual(['acme/index.html', 'acme/product/1/index.html']);
  // Everything else goes before the build writes a file: the other pages, assets, the build's own files.
  await recycled!.cleared;
  expect(await files(path.join(dir, 'next'))).toEqual(['acme/index.html', 'acme/product/1/index.html']);
  expect([...recycled!.folders].sort()).toEqual([
    '_astro',
    'acme',
    'acme/product/1',
    'acme/product/2',
    'acme/product/3',
    'builds',
  ]);
  expect(await pointer.spare()).toBeNull();
});

test('a spare with less than half the live pages’ bytes (other code) is not taken', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'recycle-'));
  await build(path.join(dir, 'live'), {
    'acme/index.html': 'home v2',
    'acme/product/1/index.html': 'one v2',
    'acme/product/2/index.html': 'two',
  });
  await build(path.join(dir, '.spare-old'), {
    'acme/index.html': 'home',
    'acme/product/1/index.html': 'one',
    'acme/product/2/index.html': 'two',
  });
  const pointer = new BuildPointer(dir);
  expect(
    await recycleSpare(pointer, 'next', { root: path.join(dir, 'live'), record: recordOf(LIVE_PAGES) }),
  ).toBeUndefined();
  expect(await pointer.spare()).toBe(path.join(dir, '.spare-old'));
  expect((await readdir(dir)).sort()).toEqual(['.spare-old', 'live']);
});

test('no spare, or one without a manifest: nothing is taken', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'recycle-'));
  await build(path.join(dir, 'live'), { 'acme/index.html': 'home' });
  const pointer = new BuildPointer(dir);
  const live = { root: path.join(dir, 'live'), record: recordOf({ '/acme': ['acme/index.html'] }) };
  expect(await recycleSpare(pointer, 'next', live)).toBeUndefined();
  await mkdir(path.join(dir, '.spare-half', 'acme'), { recursive: true });
  await writeFile(path.join(dir, '.spare-half', 'acme', 'index.html'), 'home');
  expect(await recycleSpare(pointer, 'next', live)).toBeUndefined();
  expect((await readdir(dir)).sort()).toEqual(['.spare-half', 'live']);
});
