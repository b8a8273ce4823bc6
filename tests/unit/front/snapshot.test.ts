import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import type { RenderedPage } from '../../../src/front/page-render.ts';
import { writeSnapshot } from '../../../src/front/snapshot.ts';
import { MIN_COMPRESSED_BYTES } from '../../../src/front/static-files.ts';
import { newBuildId } from '../../../src/server/publishing/publishing.ts';

/** No page here offers an image derivative: the front that would make them is never called. */
const baseUrl = 'http://127.0.0.1:9';

/** A renderer answering each path with `answer`'s page, which may take its time. */
function renderer(
  answer: (
    url: string,
  ) => { status: number; type: string; body: string } | Promise<{ status: number; type: string; body: string }>,
): (url: string) => Promise<RenderedPage> {
  return async (url) => {
    const { status, type, body } = await answer(url);
    return { status, contentType: type, body: new TextEncoder().encode(body) };
  };
}

test('a snapshot writes each page, its payload, compressed copies of the larger files and the build-id files', async () => {
  const buildsDir = await mkdtemp(path.join(tmpdir(), 'snap-'));
  const render = renderer((url) => {
    if (url.endsWith('.xml')) return { status: 200, type: 'application/xml', body: '<urlset/>' };
    // The store front is worth compressing; the product page, under MIN_COMPRESSED_BYTES, is sent as it is.
    const padding = 'x'.repeat(url === '/acme' ? MIN_COMPRESSED_BYTES : 600);
    return { status: 200, type: 'text/html; charset=utf-8', body: `<html>${url}${padding}</html>` };
  });
  const result = await writeSnapshot({
    id: newBuildId(),
    baseUrl,
    render,
    buildsDir,
    pages: [
      { path: '/acme', payload: async () => ({ page: 'store-front' }) },
      { path: '/acme/product/1', payload: async () => null },
      { path: '/acme/sitemap.xml', payload: async () => null },
    ],
  });
  const root = path.join(buildsDir, result.id);
  expect(await readFile(path.join(root, 'acme', 'index.html'), 'utf8')).toContain('<html>/acme');
  expect((await readdir(path.join(root, 'acme'))).sort()).toEqual([
    '_payload.json',
    'index.html',
    'index.html.br',
    'product',
    'sitemap.xml',
  ]);
  expect(await readdir(path.join(root, 'acme', 'product', '1'))).toEqual(['index.html']);
  expect(JSON.parse(await readFile(path.join(root, 'acme', '_payload.json'), 'utf8'))).toEqual({ page: 'store-front' });
  const latest = JSON.parse(await readFile(path.join(root, 'builds', 'latest.json'), 'utf8'));
  expect(latest).toEqual({ id: result.id, timestamp: expect.any(Number) });
  const meta = JSON.parse(await readFile(path.join(root, 'builds', 'meta', `${result.id}.json`), 'utf8'));
  expect(meta).toMatchObject({ id: result.id, pages: 3 });
});

test('a page that fails to render fails the snapshot and leaves no half-written build', async () => {
  const buildsDir = await mkdtemp(path.join(tmpdir(), 'snap-'));
  const render = renderer((url) =>
    url === '/acme/product/2'
      ? { status: 500, type: 'text/plain', body: 'boom' }
      : { status: 200, type: 'text/html', body: 'ok' },
  );
  const pages = ['/acme', '/acme/product/1', '/acme/product/2'].map((p) => ({ path: p, payload: async () => null }));
  await expect(writeSnapshot({ id: newBuildId(), baseUrl, render, buildsDir, pages })).rejects.toThrow(
    /\/acme\/product\/2 failed with 500/,
  );
  expect(await readdir(buildsDir)).toEqual([]);
});

test('when a page fails, pages still rendering finish before the build folder is removed', async () => {
  const buildsDir = await mkdtemp(path.join(tmpdir(), 'snap-'));
  let requested = 0;
  let answered = 0;
  const render = renderer(async (url) => {
    requested++;
    // The other pages are slow renders: they are still on their way when the failure arrives.
    if (url !== '/acme/fail') await new Promise((resolve) => setTimeout(resolve, 200));
    answered++;
    return url === '/acme/fail'
      ? { status: 500, type: 'text/plain', body: 'boom' }
      : { status: 200, type: 'text/html', body: '<html>slow page</html>' };
  });
  const pages = ['/acme/fail', ...Array.from({ length: 7 }, (_, i) => `/acme/product/${i}`)].map((p) => ({
    path: p,
    payload: async () => null,
  }));
  await expect(writeSnapshot({ id: newBuildId(), baseUrl, render, buildsDir, pages })).rejects.toThrow(
    /\/acme\/fail failed with 500/,
  );
  // Every page asked for was answered (and written) before the folder went: nothing wrote into it after.
  expect(answered).toBe(requested);
  expect(await readdir(buildsDir)).toEqual([]);
});

test('a page that is gone (404) is skipped, not written', async () => {
  const buildsDir = await mkdtemp(path.join(tmpdir(), 'snap-'));
  const render = renderer((url) =>
    url === '/acme/product/9'
      ? { status: 404, type: 'text/html', body: 'gone' }
      : { status: 200, type: 'text/html', body: 'ok' },
  );
  const result = await writeSnapshot({
    id: newBuildId(),
    baseUrl,
    render,
    buildsDir,
    pages: [{ path: '/acme/product/9', payload: async () => null }],
  });
  expect(result).toMatchObject({ pages: 0, skipped: ['/acme/product/9 (404)'] });
});

test('pages are sorted as they are listed: the first is looked up in the live build before the listing ends', async () => {
  const buildsDir = await mkdtemp(path.join(tmpdir(), 'snap-'));
  const events: string[] = [];
  const render = renderer((url) => ({ status: 200, type: 'text/html; charset=utf-8', body: `<html>${url}</html>` }));
  async function* listing() {
    for (const page of ['/acme', '/acme/product/1', '/acme/product/2']) {
      events.push(`listed ${page}`);
      yield { path: page, payload: async () => null };
      // The next list page is asked for: the workers get a turn meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
    }
    events.push('listing done');
  }
  const result = await writeSnapshot({
    id: newBuildId(),
    baseUrl,
    render,
    buildsDir,
    pages: listing(),
    reuse: {
      from: path.join(buildsDir, 'none'),
      folders: () => [],
      takenHash: () => undefined,
      unchanged: async (page) => {
        events.push(`looked up ${page}`);
        return null;
      },
    },
  });
  expect(result.pages).toBe(3);
  expect(events.indexOf('looked up /acme')).toBeLessThan(events.indexOf('listing done'));
});

test('a listing that fails part-way fails the snapshot and leaves no build folder', async () => {
  const buildsDir = await mkdtemp(path.join(tmpdir(), 'snap-'));
  const render = renderer((url) => ({ status: 200, type: 'text/html; charset=utf-8', body: `<html>${url}</html>` }));
  async function* listing() {
    yield { path: '/acme', payload: async () => null };
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('the second list page answered 503');
  }
  await expect(writeSnapshot({ id: newBuildId(), baseUrl, render, buildsDir, pages: listing() })).rejects.toThrow(
    'the second list page answered 503',
  );
  expect(await readdir(buildsDir)).toEqual([]);
});
