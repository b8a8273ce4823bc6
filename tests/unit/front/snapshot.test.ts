import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { writeSnapshot } from '../../../src/front/snapshot.ts';
import { MIN_COMPRESSED_BYTES } from '../../../src/front/static-files.ts';
import { newBuildId } from '../../../src/server/publishing/publishing.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function renderer(
  answer: (url: string, secret: string | undefined) => { status: number; type: string; body: string },
): Promise<string> {
  server = createServer((req, res) => {
    const { status, type, body } = answer(req.url ?? '/', req.headers['x-prerender'] as string | undefined);
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('a snapshot writes each page, its payload, compressed copies of the larger files and the build-id files', async () => {
  const buildsDir = await mkdtemp(path.join(tmpdir(), 'snap-'));
  const seenSecrets = new Set<string | undefined>();
  const baseUrl = await renderer((url, secret) => {
    seenSecrets.add(secret);
    if (url.endsWith('.xml')) return { status: 200, type: 'application/xml', body: '<urlset/>' };
    // The store front is worth compressing; the product page, under MIN_COMPRESSED_BYTES, is sent as it is.
    const padding = 'x'.repeat(url === '/acme' ? MIN_COMPRESSED_BYTES : 600);
    return { status: 200, type: 'text/html; charset=utf-8', body: `<html>${url}${padding}</html>` };
  });
  const result = await writeSnapshot({
    id: newBuildId(),
    baseUrl,
    prerenderSecret: 's3cret',
    buildsDir,
    pages: [
      { path: '/acme', payload: async () => ({ page: 'store-front' }) },
      { path: '/acme/product/1', payload: async () => null },
      { path: '/acme/sitemap.xml', payload: async () => null },
    ],
  });
  const root = path.join(buildsDir, result.id);
  expect(seenSecrets).toEqual(new Set(['s3cret']));
  expect(await readFile(path.join(root, 'acme', 'index.html'), 'utf8')).toContain('<html>/acme');
  expect((await readdir(path.join(root, 'acme'))).sort()).toEqual([
    '_payload.json',
    'index.html',
    'index.html.br',
    'index.html.gz',
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
  const baseUrl = await renderer((url) =>
    url === '/acme/product/2'
      ? { status: 500, type: 'text/plain', body: 'boom' }
      : { status: 200, type: 'text/html', body: 'ok' },
  );
  const pages = ['/acme', '/acme/product/1', '/acme/product/2'].map((p) => ({ path: p, payload: async () => null }));
  await expect(writeSnapshot({ id: newBuildId(), baseUrl, prerenderSecret: 's', buildsDir, pages })).rejects.toThrow(
    /\/acme\/product\/2 failed with 500/,
  );
  expect(await readdir(buildsDir)).toEqual([]);
});

test('when a page fails, pages still rendering finish before the build folder is removed', async () => {
  const buildsDir = await mkdtemp(path.join(tmpdir(), 'snap-'));
  let requested = 0;
  let answered = 0;
  server = createServer((req, res) => {
    requested++;
    const answer = () => {
      answered++;
      if (req.url === '/acme/fail') res.writeHead(500).end('boom');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html>slow page</html>');
    };
    // The other pages are slow renders: they are still on their way when the failure arrives.
    if (req.url === '/acme/fail') answer();
    else setTimeout(answer, 200);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pages = ['/acme/fail', ...Array.from({ length: 7 }, (_, i) => `/acme/product/${i}`)].map((p) => ({
    path: p,
    payload: async () => null,
  }));
  await expect(writeSnapshot({ id: newBuildId(), baseUrl, prerenderSecret: 's', buildsDir, pages })).rejects.toThrow(
    /\/acme\/fail failed with 500/,
  );
  // Every page asked for was answered (and written) before the folder went: nothing wrote into it after.
  expect(answered).toBe(requested);
  expect(await readdir(buildsDir)).toEqual([]);
});

test('a page that is gone (404) is skipped, not written', async () => {
  const buildsDir = await mkdtemp(path.join(tmpdir(), 'snap-'));
  const baseUrl = await renderer((url) =>
    url === '/acme/product/9'
      ? { status: 404, type: 'text/html', body: 'gone' }
      : { status: 200, type: 'text/html', body: 'ok' },
  );
  const result = await writeSnapshot({
    id: newBuildId(),
    baseUrl,
    prerenderSecret: 's',
    buildsDir,
    pages: [{ path: '/acme/product/9', payload: async () => null }],
  });
  expect(result).toMatchObject({ pages: 0, skipped: ['/acme/product/9 (404)'] });
});
