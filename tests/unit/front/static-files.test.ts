import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cacheControlFor, sendEntry, StaticFolder } from '../../../src/front/static-files.ts';

const PAGE = `<h1>product</h1>${'<p>words</p>'.repeat(200)}`;
let root: string;
let server: Server;
let base: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'static-'));
  await mkdir(path.join(root, 'acme', 'shop'), { recursive: true });
  await writeFile(path.join(root, 'acme', 'shop', 'index.html'), '<h1>plain</h1>');
  await writeFile(path.join(root, 'acme', 'shop', 'index.html.br'), 'brotli-bytes');
  await writeFile(path.join(root, 'acme', 'shop', 'index.html.gz'), 'gzip-bytes');
  // A snapshot page: a `.br` and no `.gz` (docs/decisions/222-pages-compressed-once.md).
  await mkdir(path.join(root, 'acme', 'product', '1'), { recursive: true });
  await writeFile(path.join(root, 'acme', 'product', '1', 'index.html'), PAGE);
  await writeFile(path.join(root, 'acme', 'product', '1', 'index.html.br'), 'brotli-page');
  await writeFile(path.join(root, 'secret.txt'), 'outside');
  const folder = new StaticFolder(path.join(root, 'acme'));
  server = createServer(
    (req, res) =>
      void (async () => {
        const pathname = new URL(req.url ?? '/', 'http://x').pathname;
        const entry = await folder.lookup(pathname);
        if (!entry) {
          res.writeHead(404);
          res.end();
          return;
        }
        sendEntry(req, res, entry, pathname);
      })(),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The raw answer to `urlPath` with this Accept-Encoding (fetch would decode it), from `at`. */
async function raw(urlPath: string, encoding: string, method = 'GET', at = base) {
  const { request } = await import('node:http');
  return new Promise<{ encoding: string | undefined; length: string | undefined; body: Buffer }>((resolve, reject) => {
    request(`${at}${urlPath}`, { method, headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          encoding: res.headers['content-encoding'],
          length: res.headers['content-length'],
          body: Buffer.concat(chunks),
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('StaticFolder', () => {
  test('a directory-style URL is answered with its index.html', async () => {
    const response = await fetch(`${base}/shop`, { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toBe('<h1>plain</h1>');
  });

  test('the brotli variant is sent to a browser that accepts it, else gzip', async () => {
    const answer = async (encoding: string) => {
      const { encoding: sent, body } = await raw('/shop', encoding);
      return { encoding: sent, body: body.toString() };
    };
    expect(await answer('gzip, deflate, br')).toEqual({ encoding: 'br', body: 'brotli-bytes' });
    expect(await answer('gzip')).toEqual({ encoding: 'gzip', body: 'gzip-bytes' });
  });

  test('a page built without a .gz is gzipped for a client that accepts only gzip, then sent from memory', async () => {
    expect((await raw('/product/1', 'gzip, br')).body.toString()).toBe('brotli-page');
    const first = await raw('/product/1', 'gzip');
    expect(first.encoding).toBe('gzip');
    expect(gunzipSync(first.body).toString()).toBe(PAGE);
    expect(first.body.length).toBeLessThan(PAGE.length / 4);
    // Made as it was sent, so without a length; kept, the same bytes come with theirs.
    expect(first.length).toBeUndefined();
    const again = await raw('/product/1', 'gzip');
    expect(again.body.equals(first.body)).toBe(true);
    expect(Number(again.length)).toBe(first.body.length);
    const head = await raw('/product/1', 'gzip', 'HEAD');
    expect(head).toEqual({ encoding: 'gzip', length: again.length, body: Buffer.alloc(0) });
    expect((await raw('/product/1', 'identity')).body.toString()).toBe(PAGE);
  });

  test('past the folder’s memory budget a page is gzipped as it is sent, every time', async () => {
    const folder = new StaticFolder(path.join(root, 'acme'), { memoryCacheBytes: 0 });
    const entry = (await folder.lookup('/product/1'))!;
    const streamed = createServer((req, res) => sendEntry(req, res, entry, '/product/1'));
    await new Promise<void>((resolve) => streamed.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(streamed.address() as AddressInfo).port}`;
    for (let ask = 0; ask < 2; ask++) {
      const answer = await raw('/product/1', 'gzip', 'GET', at);
      expect(answer.encoding).toBe('gzip');
      expect(answer.length).toBeUndefined();
      expect(gunzipSync(answer.body).toString()).toBe(PAGE);
    }
    await new Promise((resolve) => streamed.close(resolve));
  });

  test('a matching ETag answers 304 without a body', async () => {
    const first = await fetch(`${base}/shop`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const second = await fetch(`${base}/shop`, { headers: { 'if-none-match': etag! } });
    expect(second.status).toBe(304);
  });

  test('If-None-Match lists and weak forms of the ETag match too; other tags get the page', async () => {
    const etag = (await fetch(`${base}/shop`)).headers.get('etag')!;
    expect((await fetch(`${base}/shop`, { headers: { 'if-none-match': `"older", ${etag}` } })).status).toBe(304);
    expect((await fetch(`${base}/shop`, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304);
    expect((await fetch(`${base}/shop`, { headers: { 'if-none-match': '"older"' } })).status).toBe(200);
  });

  test('what a lookup found is known without waiting; a path not looked up yet is not', async () => {
    const folder = new StaticFolder(path.join(root, 'acme'));
    expect(folder.known('/shop')).toBeUndefined();
    const entry = await folder.lookup('/shop');
    expect(folder.known('/shop')).toBe(entry);
    await folder.lookup('/nothing-here');
    expect(folder.known('/nothing-here')).toBeNull();
  });

  test('an answer sent again carries the same headers, for each encoding', async () => {
    // Identity, so fetch has nothing to decode; the headers of each variant are kept apart.
    const first = await fetch(`${base}/shop`, { headers: { 'accept-encoding': 'identity' } });
    const again = await fetch(`${base}/shop`, { headers: { 'accept-encoding': 'identity' } });
    const withoutDate = (response: Response) => [...response.headers].filter(([name]) => name !== 'date');
    expect(withoutDate(again)).toEqual(withoutDate(first));
    expect(again.headers.get('content-encoding')).toBeNull();
    expect(await again.text()).toBe('<h1>plain</h1>');
  });

  test('paths climbing out of the folder find nothing', async () => {
    const folder = new StaticFolder(path.join(root, 'acme'));
    expect(await folder.lookup('/../secret.txt')).toBeNull();
    expect(await folder.lookup('/%2e%2e/secret.txt')).toBeNull();
    expect(await folder.lookup('/shop%00')).toBeNull();
  });
});

describe('cacheControlFor', () => {
  test('hashed assets are immutable and documents are revalidated', () => {
    expect(cacheControlFor('/_astro/client.XI9U0KhD.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/acme/shop')).toBe('public, max-age=0, must-revalidate');
    expect(cacheControlFor('/builds/latest.json')).toBe('public, max-age=0, must-revalidate');
  });
});
