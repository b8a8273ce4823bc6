import { link, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readManifest, sha256Of, writeManifest, type BuildManifest } from '../../../src/front/build-manifest.ts';

const DOCUMENT = { 'content-security-policy': "default-src 'self'" };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'build-manifest-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function put(file: string, body: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, body);
}

describe('a build manifest', () => {
  test('lists each file once with its compressed variants, and is written with _headers', async () => {
    const root = path.join(dir, 'b1');
    await put(path.join(root, 'acme', 'shop', 'index.html'), '<!doctype html><p>shop</p>');
    await put(path.join(root, 'acme', 'shop', 'index.html.br'), 'br bytes');
    await put(path.join(root, 'acme', 'shop', 'index.html.gz'), 'gz bytes');
    await put(path.join(root, 'images', 'logo.png.gz'), 'a file of its own: a PNG has no variants');
    const manifest = await writeManifest(root, { id: 'b1', documentHeaders: DOCUMENT });
    expect(manifest.files.map((file) => file.path)).toEqual(['acme/shop/index.html', 'images/logo.png.gz']);
    const page = manifest.files[0]!;
    expect(page).toMatchObject({
      type: 'text/html; charset=utf-8',
      cacheControl: 'public, max-age=0, must-revalidate',
      sha256: await sha256Of(path.join(root, 'acme', 'shop', 'index.html')),
    });
    expect(page.encodings.br).toEqual({ size: 8, sha256: await sha256Of(path.join(root, 'acme/shop/index.html.br')) });
    expect(await readManifest(root)).toEqual(manifest);
    expect(await readFile(path.join(root, '_headers'), 'utf8')).toContain('content-security-policy');
  });

  test('lists the files it is given as they are, without reading the folder for others', async () => {
    const root = path.join(dir, 'b2');
    await put(path.join(root, 'acme', 'index.html'), '<!doctype html><p>home</p>');
    await put(path.join(root, 'acme', 'index.html.gz'), 'gz bytes');
    await put(path.join(root, 'stray.txt'), 'not the build’s: a walk of the folder would list it');
    const manifest = await writeManifest(root, {
      id: 'b2',
      documentHeaders: DOCUMENT,
      files: ['acme/index.html', 'acme/index.html.gz', 'acme/index.html'],
    });
    expect(manifest.files.map((file) => file.path)).toEqual(['acme/index.html']);
    expect(manifest.files[0]!.encodings.gzip).toEqual({
      size: 8,
      sha256: await sha256Of(path.join(root, 'acme', 'index.html.gz')),
    });
  });

  test('a file hard-linked from the live build keeps its digest there; a file with new bytes is read', async () => {
    const live = path.join(dir, 'live');
    await put(path.join(live, 'acme', 'a', 'index.html'), 'same page');
    await put(path.join(live, 'acme', 'b', 'index.html'), 'old page');
    const written = await writeManifest(live, { id: 'live', documentHeaders: DOCUMENT });
    // A marker digest in the live manifest shows whether the next build read the file or reused the entry.
    const marked: BuildManifest = {
      ...written,
      files: written.files.map((file) => ({ ...file, sha256: `kept-${file.path}` })),
    };
    await writeFile(path.join(live, '_manifest.json'), JSON.stringify(marked));

    const next = path.join(dir, 'next');
    await mkdir(path.join(next, 'acme', 'a'), { recursive: true });
    await link(path.join(live, 'acme', 'a', 'index.html'), path.join(next, 'acme', 'a', 'index.html'));
    await put(path.join(next, 'acme', 'b', 'index.html'), 'old page');
    const manifest = await writeManifest(next, { id: 'next', documentHeaders: DOCUMENT, previousRoot: live });
    const digest = (file: string) => manifest.files.find((entry) => entry.path === file)!.sha256;
    expect(digest('acme/a/index.html')).toBe('kept-acme/a/index.html');
    expect(digest('acme/b/index.html')).toBe(await sha256Of(path.join(next, 'acme', 'b', 'index.html')));
  });
});
