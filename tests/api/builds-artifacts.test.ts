/**
 * Builds as static artifacts (docs/decisions/212-builds-as-static-artifacts.md): the whole storefront process
 * with a stand-in for Astro's pages and a small Astro client output. A build folder is a complete static
 * site with a manifest and a `_headers` file that says what `npm start` sends; Publish uploads it to the
 * builds bucket (the fake S3) before it goes live, and a refused upload fails the build;
 * `npm run export` writes one build for a static host.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serverEvents } from '../../src/lib/build-progress.ts';
import { manifestObjects, sha256Of, type BuildManifest } from '../../src/front/build-manifest.ts';
import { originalOfDerivativeFile } from '../../src/lib/responsive-image.ts';
import { startFakeS3, type FakeS3 } from './support/fake-s3.ts';
import { headersFor } from './support/headers-file.ts';
import { startTestStorefront, type TestStorefront } from './support/test-storefront.ts';

const TOKEN = 'build-token-of-the-artifact-tests-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#c33"/></svg>';

/** Every store page offers a public image and a store media file in two derivatives, as Picture.astro does. */
async function renderPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = new URL(req.url ?? '/', 'http://front').pathname;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><title>${pathname}</title><picture>` +
      '<source type="image/avif" srcset="/images/tee.svg?w=320&amp;fm=avif 320w">' +
      '<source type="image/webp" srcset="/acme/media/pic.svg?w=320&amp;fm=webp 320w">' +
      `<img src="/images/tee.svg" alt=""></picture><p>${'A page long enough to be compressed. '.repeat(30)}</p>`,
  );
}

let folder: string;
let s3: FakeS3;
let started: TestStorefront;
let url: string;
let buildsDir: string;
let liveId: string;
let manifest: BuildManifest;

const root = () => path.join(buildsDir, liveId);

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'builds-artifacts-'));
  const client = path.join(folder, 'dist', 'client');
  await mkdir(path.join(client, '_astro'), { recursive: true });
  await mkdir(path.join(client, 'images'), { recursive: true });
  await writeFile(path.join(client, '_astro', 'app.1a2b3c.js'), 'console.log("island");\n'.repeat(40));
  await writeFile(path.join(client, 'images', 'tee.svg'), SVG);
  await writeFile(path.join(client, 'favicon.svg'), SVG);
  await mkdir(path.join(folder, 'media', 'acme'), { recursive: true });
  await writeFile(path.join(folder, 'media', 'acme', 'pic.svg'), SVG.replace('#c33', '#33c'));
  s3 = await startFakeS3('builds-key');
  started = await startTestStorefront({
    name: 'builds-artifacts',
    renderPage,
    snapshotOnStart: true,
    env: {
      REBUILD_TOKEN: TOKEN,
      DIST_DIR: path.join(folder, 'dist'),
      MEDIA_DIR: path.join(folder, 'media'),
      S3_BUILDS_BUCKET: 'site',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'builds-key',
      S3_SECRET_ACCESS_KEY: 'builds-secret',
      S3_FORCE_PATH_STYLE: 'true',
      BUILDS_KEPT: '2',
    },
  });
  url = started.storefront.url;
  buildsDir = started.env.BUILDS_DIR!;
  liveId = ((await (await fetch(`${url}/builds/latest.json?${Date.now()}`)).json()) as { id: string }).id;
  manifest = JSON.parse(await readFile(path.join(root(), '_manifest.json'), 'utf8')) as BuildManifest;
}, 120_000);

afterAll(async () => {
  await started?.close();
  await s3?.close();
  await rm(folder, { recursive: true, force: true });
});

async function filesUnder(dir: string, relative = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(dir, relative), { withFileTypes: true })) {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    found.push(...(entry.isDirectory() ? await filesUnder(dir, child) : [child]));
  }
  return found;
}

/** Where the front answers a file of the build: a derivative's file at its original's derivative URL. */
function servedAt(urlPath: string): string {
  const original = originalOfDerivativeFile(urlPath);
  if (!original) return urlPath;
  const [, width, format] = /\.w(\d+)\.(\w+)$/.exec(urlPath)!;
  return `${original}?w=${width}&fm=${format}`;
}

describe('a build folder', () => {
  test('lists every file it holds in its manifest, with the size and SHA-256 on disk', async () => {
    const listed = manifestObjects(manifest);
    expect(listed.map((object) => object.path).sort()).toEqual(
      (await filesUnder(root())).filter((file) => file !== '_manifest.json' && file !== '_headers').sort(),
    );
    for (const object of listed) {
      expect((await stat(path.join(root(), object.path))).size, object.path).toBe(object.digest.size);
      expect(await sha256Of(path.join(root(), object.path)), object.path).toBe(object.digest.sha256);
    }
    // Pages have a brotli copy only; the front gzips them on demand (docs/decisions/222-pages-compressed-once.md).
    const page = manifest.files.find((file) => file.path === 'acme/shop/index.html')!;
    expect(Object.keys(page.encodings)).toEqual(['br']);
  });

  test('holds the client assets as hard links of DIST_DIR, the derivatives its pages offer and the store’s media', async () => {
    const asset = path.join('_astro', 'app.1a2b3c.js');
    expect((await stat(path.join(root(), asset))).ino).toBe(
      (await stat(path.join(folder, 'dist', 'client', asset))).ino,
    );
    const derivative = await stat(path.join(root(), '_derivatives', 'images', 'tee.svg.w320.avif'));
    expect(derivative.nlink).toBeGreaterThan(1);
    const answered = await fetch(`${url}/images/tee.svg?w=320&fm=avif`);
    expect(Buffer.from(await answered.arrayBuffer()).length).toBe(derivative.size);
    expect(await readFile(path.join(root(), 'acme', 'media', 'pic.svg'), 'utf8')).toContain('#33c');
    expect((await stat(path.join(root(), '_derivatives', 'acme', 'media', 'pic.svg.w320.webp'))).isFile()).toBe(true);
  });

  test('has a _headers file that says, for every URL of every file, what npm start sends', async () => {
    const rules = await readFile(path.join(root(), '_headers'), 'utf8');
    for (const file of manifest.files) {
      const urls = file.path.endsWith('index.html')
        ? [`/${file.path.slice(0, -'/index.html'.length)}`, `/${file.path.slice(0, -'index.html'.length)}`]
        : [`/${file.path}`];
      for (const urlPath of urls) {
        const answer = await fetch(`${url}${servedAt(urlPath)}`, { method: 'HEAD' });
        expect(answer.status, urlPath).toBe(200);
        expect(answer.headers.get('content-type'), urlPath).toBe(file.type);
        const expected = headersFor(rules, urlPath);
        expect(expected['cache-control'], urlPath).toBe(file.cacheControl);
        for (const [name, value] of Object.entries(expected))
          expect(`${name}: ${answer.headers.get(name)}`, urlPath).toBe(`${name}: ${value}`);
      }
    }
  });
});

async function build(): Promise<{ id: string; outcome: string }> {
  const answer = await fetch(`${url}/api/admin/builds`, { method: 'POST', headers: bearer });
  expect(answer.status).toBe(202);
  const { id } = ((await answer.json()) as { data: { id: string } }).data;
  const stream = await fetch(`${url}/api/admin/builds/${id}/events`, { headers: bearer });
  let outcome = '';
  for await (const event of serverEvents(stream.body!)) outcome = event.event;
  return { id, outcome };
}

describe('the builds bucket', () => {
  test('has every file of the live build, with its type, encoding and Cache-Control, and its manifest', () => {
    for (const object of manifestObjects(manifest)) {
      const stored = s3.objects.get(`site/builds/${liveId}/${object.path}`);
      expect(stored?.body.length, object.path).toBe(object.digest.size);
      expect(stored?.type, object.path).toBe(object.file.type);
      expect(stored?.cacheControl, object.path).toBe(object.file.cacheControl);
      expect(stored?.encoding, object.path).toBe(object.encoding ?? undefined);
    }
    expect(s3.objects.has(`site/builds/${liveId}/_manifest.json`)).toBe(true);
    expect(s3.objects.has(`site/builds/${liveId}/_headers`)).toBe(true);
  });

  test('a build the bucket refuses fails and never goes live', async () => {
    s3.refusePuts = true;
    try {
      const { id, outcome } = await build();
      expect(outcome).toBe('failed');
      const record = await fetch(`${url}/api/admin/builds/${id}`, { headers: bearer });
      expect(((await record.json()) as { data: { status: string; error: string } }).data).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('builds bucket'),
      });
      expect(await stat(path.join(buildsDir, id)).catch(() => null)).toBeNull();
      const live = await fetch(`${url}/builds/latest.json?${Date.now()}`);
      expect(((await live.json()) as { id: string }).id).toBe(liveId);
    } finally {
      s3.refusePuts = false;
    }
  });
});

/** `npm run export` on this storefront's builds: its output and exit code. */
function runExport(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/export-build.ts', ...args],
      { env: { ...process.env, BUILDS_DIR: buildsDir }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('npm run export', () => {
  test('writes the build, its _headers and its manifest into a new folder', async () => {
    const out = path.join(folder, 'export');
    const { code, output } = await runExport(['--build', liveId, '--out', out]);
    expect(output).toContain(`Build ${liveId}:`);
    expect(code).toBe(0);
    for (const object of manifestObjects(manifest))
      expect(await sha256Of(path.join(out, object.path)), object.path).toBe(object.digest.sha256);
    expect(await readFile(path.join(out, '_headers'), 'utf8')).toBe(
      await readFile(path.join(root(), '_headers'), 'utf8'),
    );
    expect((await stat(path.join(out, '_manifest.json'))).isFile()).toBe(true);
  });

  test('refuses an unknown build and a folder that is not empty, exiting non-zero', async () => {
    const unknown = await runExport(['--build', 'no-such-build', '--out', path.join(folder, 'nowhere')]);
    expect(unknown).toMatchObject({ code: 1, output: expect.stringContaining('There is no build no-such-build in') });
    const full = path.join(folder, 'full');
    await mkdir(full);
    await writeFile(path.join(full, 'index.html'), 'mine');
    const refused = await runExport(['--build', liveId, '--out', full]);
    expect(refused).toMatchObject({ code: 1, output: expect.stringContaining('is not an empty folder') });
    expect(await readFile(path.join(full, 'index.html'), 'utf8')).toBe('mine');
    const usage = await runExport(['--build', liveId]);
    expect(usage).toMatchObject({ code: 2, output: expect.stringContaining('Usage: npm run export') });
  });
});

describe('pruning', () => {
  test('a build BUILDS_DIR no longer keeps is deleted from the bucket too, and nothing else there is', async () => {
    s3.objects.set('site/builds/notes.txt', { ...s3.objects.get(`site/builds/${liveId}/_headers`)! });
    s3.objects.set('site/builds/media/pic.svg', { ...s3.objects.get(`site/builds/${liveId}/_headers`)! });
    const first = liveId;
    const built: string[] = [];
    // BUILDS_KEPT is 2: the two newest stay (the live one and the one before it).
    for (let n = 0; n < 3; n++) {
      const { id, outcome } = await build();
      expect(outcome).toBe('done');
      built.push(id);
    }
    const inBucket = (id: string) => [...s3.objects.keys()].filter((key) => key.startsWith(`site/builds/${id}/`));
    for (const gone of [first, built[0]!]) {
      expect(await stat(path.join(buildsDir, gone)).catch(() => null)).toBeNull();
      expect(inBucket(gone)).toEqual([]);
    }
    for (const kept of built.slice(1)) {
      expect(inBucket(kept).length).toBeGreaterThan(25);
      expect(s3.objects.has(`site/builds/${kept}/_manifest.json`)).toBe(true);
    }
    expect(s3.objects.has('site/builds/notes.txt')).toBe(true);
    expect(s3.objects.has('site/builds/media/pic.svg')).toBe(true);
  });
});
