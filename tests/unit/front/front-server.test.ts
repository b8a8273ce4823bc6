import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BuildPointer } from '../../../src/front/build-pointer.ts';
import { createFrontListener } from '../../../src/front/front-server.ts';
import { StaticFolder } from '../../../src/front/static-files.ts';
import { ImageDerivatives } from '../../../src/front/image-derivatives.ts';

let server: Server;
/** The query of every store call the API got. */
const storeCalls: string[] = [];
let base: string;

const acme = {
  data: {
    id: '1',
    type: 'store',
    attributes: { title: 'Acme', slug: 'acme', faviconImage: null, allowedListsPresent: false, description: null },
  },
};
const vip = {
  data: {
    ...acme.data,
    id: '2',
    attributes: { ...acme.data.attributes, title: 'VIP', slug: 'vip', allowedListsPresent: true },
  },
};

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'front-'));
  await mkdir(path.join(dir, 'client', '_astro'), { recursive: true });
  await writeFile(path.join(dir, 'client', '_astro', 'app.abc123.js'), 'console.log(1)');
  await mkdir(path.join(dir, 'client', 'images'), { recursive: true });
  await writeFile(
    path.join(dir, 'client', 'images', 'tee.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"><rect width="800" height="800"/></svg>',
  );
  await writeFile(path.join(dir, 'client', 'images', 'broken.png'), 'not a png');
  await mkdir(path.join(dir, 'builds', 'b1', 'acme', 'shop'), { recursive: true });
  await writeFile(path.join(dir, 'builds', 'b1', 'acme', 'shop', 'index.html'), 'static shop');
  await writeFile(path.join(dir, 'builds', 'b1', 'acme', 'shop', '_payload.json'), '{"page":"shop"}');
  await mkdir(path.join(dir, 'builds', 'b1', 'builds'), { recursive: true });
  await writeFile(path.join(dir, 'builds', 'b1', 'builds', 'latest.json'), '{"id":"b1","timestamp":1}');
  const builds = new BuildPointer(path.join(dir, 'builds'));
  await builds.switchTo('b1');

  const listener = createFrontListener({
    apiFetch: (request) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/store_front') storeCalls.push(url.search);
      if (url.pathname === '/api/store_front' && url.searchParams.get('custom_domain') === 'shop.acme.test')
        return Response.json(acme);
      if (url.pathname === '/api/store_front' && url.searchParams.get('custom_domain') === 'members.vip.test')
        return Response.json(vip);
      if (url.pathname === '/api/store_front' && url.searchParams.get('custom_domain') === 'down.acme.test')
        throw new TypeError('fetch failed');
      if (url.pathname === '/api/store_front') return Response.json({ message: 'Record not found' }, { status: 404 });
      return Response.json({ api: url.pathname });
    },
    astroHandler: async (req, res, _next, locals) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          astro: req.url,
          prerender: locals?.prerender,
          domain: locals?.customDomain,
          // The build the front says the answer came from (its Server-Timing), as the build poller reads it.
          build: /^build;desc="([^"]*)"$/.exec(String(res.getHeader('server-timing') ?? ''))?.[1] ?? null,
          store: locals?.storeOutcome?.kind === 'store' ? locals.storeOutcome.store.slug : null,
        }),
      );
    },
    assets: new StaticFolder(path.join(dir, 'client')),
    images: new ImageDerivatives(path.join(dir, 'image-cache')),
    builds,
    domains: { platformDomain: 'platform.test', shopDomain: 'shop.example.com' },
  });
  server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** GET through node:http, which (unlike fetch) lets a test set the Host header. */
async function get(pathname: string, headers: Record<string, string> = {}) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: unknown }>(
    (resolve, reject) => {
      request(base + pathname, { headers }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const isJson = (res.headers['content-type'] ?? '').includes('json');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: isJson ? JSON.parse(text) : text });
        });
      })
        .on('error', reject)
        .end();
    },
  );
}

/** A GET with the request line's path exactly as given (a URL string would be normalized first). */
async function getRaw(rawPath: string, headers: Record<string, string> = {}) {
  const { request } = await import('node:http');
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    request({ hostname, port, path: rawPath, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the front listener', () => {
  test('/api requests go to the API unchanged', async () => {
    expect((await get('/api/store_front/acme')).body).toEqual({ api: '/api/store_front/acme' });
  });

  test('a snapshot page is served from the live build, with security headers', async () => {
    const { body, headers } = await get('/acme/shop');
    expect(body).toBe('static shop');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  test('a snapshot page names its build in Server-Timing, answered anew or from what the front knows', async () => {
    for (let i = 0; i < 2; i++) expect((await get('/acme/shop')).headers['server-timing']).toBe('build;desc="b1"');
    expect((await get('/acme/shop/_payload.json?b1')).headers['server-timing']).toBeUndefined();
    expect((await get('/_astro/app.abc123.js')).headers['server-timing']).toBeUndefined();
  });

  test('documents carry the content security policy; scripts only the headers that apply to them', async () => {
    const page = await get('/acme/shop');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    const script = await get('/_astro/app.abc123.js');
    expect(script.headers['content-security-policy']).toBeUndefined();
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    const rendered = await get('/acme/cart');
    expect(rendered.headers['content-security-policy']).toContain("default-src 'self'");
  });

  test('a page answered before is answered the same way again', async () => {
    const withoutDate = (headers: Record<string, unknown>) => ({ ...headers, date: undefined });
    const first = await get('/acme/shop');
    const again = await get('/acme/shop');
    expect(again.body).toBe('static shop');
    expect(withoutDate(again.headers)).toEqual(withoutDate(first.headers));
  });

  test('a known page is not what a custom domain or a host-like path gets', async () => {
    await get('/acme/shop');
    expect((await get('/acme/shop', { host: 'shop.acme.test' })).body).toMatchObject({ domain: 'shop.acme.test' });
    // `/..//acme/shop` is the path `//acme/shop` to the URL parser, which finds the shop page's file;
    // a request for `//acme/shop` itself is the host `acme` and the path `/shop` to that parser.
    expect((await getRaw('/..//acme/shop')).body).toBe('static shop');
    expect(JSON.parse((await getRaw('//acme/shop')).body)).toMatchObject({ astro: '//acme/shop' });
  });

  test('hashed assets are served from the Astro client folder as immutable', async () => {
    const { body, headers } = await get('/_astro/app.abc123.js');
    expect(body).toBe('console.log(1)');
    expect(headers['cache-control']).toContain('immutable');
  });

  test('query-driven variants and entry links render on demand', async () => {
    expect((await get('/acme/shop?page=2')).body).toMatchObject({ astro: '/acme/shop?page=2' });
    expect((await get('/acme/shop?uuid=u1')).body).toMatchObject({ astro: '/acme/shop?uuid=u1' });
  });

  test('outside requests cannot claim to be snapshot renders or custom domains', async () => {
    const forged = await get('/acme/cart', { 'x-prerender': '1', 'x-store-domain': 'evil.example.com' });
    expect(forged.body).toEqual({ astro: '/acme/cart', prerender: false, domain: null, build: 'b1', store: null });
  });

  test('on-demand renders name the live build, whatever the request claims', async () => {
    expect((await get('/acme/cart', { 'server-timing': 'build;desc="forged"' })).body).toMatchObject({ build: 'b1' });
  });

  test('a custom domain renders the store route without prefix links', async () => {
    expect((await get('/product/7', { host: 'shop.acme.test' })).body).toEqual({
      astro: '/acme/product/7',
      prerender: false,
      domain: 'shop.acme.test',
      build: 'b1',
      store: 'acme',
    });
  });

  test("a custom domain's store is fetched once per request and handed to Astro", async () => {
    const before = storeCalls.length;
    expect((await get('/shop', { host: 'members.vip.test' })).body).toMatchObject({
      astro: '/vip/shop',
      domain: 'members.vip.test',
      store: 'vip',
    });
    expect(storeCalls.slice(before)).toEqual(['?custom_domain=members.vip.test']);
  });

  test('a custom domain whose store gets no answer goes to /404 with the load-error flag', async () => {
    const answer = await get('/shop', { host: 'down.acme.test' });
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/404?load-error=1');
  });

  test('a custom domain written with a trailing dot (and a port) is the same store domain', async () => {
    expect((await get('/product/7', { host: 'Shop.Acme.Test.' })).body).toEqual({
      astro: '/acme/product/7',
      prerender: false,
      domain: 'shop.acme.test',
      build: 'b1',
      store: 'acme',
    });
    expect((await get('/cart', { host: 'shop.acme.test.:4321' })).body).toMatchObject({
      astro: '/acme/cart',
      domain: 'shop.acme.test',
    });
  });

  test("a custom domain gets the build-id files and the store's payloads from the live build", async () => {
    expect((await get('/builds/latest.json', { host: 'shop.acme.test' })).body).toEqual({ id: 'b1', timestamp: 1 });
    expect((await get('/shop/_payload.json?b1', { host: 'shop.acme.test' })).body).toEqual({ page: 'shop' });
  });

  test('an unknown custom domain goes to the store-not-found page', async () => {
    const { status, headers } = await get('/', { host: 'www.unknown-store.test' });
    expect(status).toBe(302);
    expect(headers.location).toBe('/store-not-found');
  });

  test('an access cookie that decodes to a NUL is dropped before it could become an API header', async () => {
    const { status, headers } = await get('/', {
      host: 'nul.unknown-store.test',
      cookie: 'allowed-domain-token=%00; allowed-recipient-token=a%0Ab',
    });
    expect(status).toBe(302);
    expect(headers.location).toBe('/store-not-found');
  });

  test("hosts on the platform's or the shop's own domain are not store domains", async () => {
    expect((await get('/acme', { host: 'app.platform.test' })).body).toMatchObject({ astro: '/acme', domain: null });
    expect((await get('/acme', { host: 'shop.example.com' })).body).toMatchObject({ astro: '/acme', domain: null });
  });
});

describe('image derivatives of public files (docs/decisions/184-responsive-image-derivatives.md)', () => {
  test('an image asked for at a width and format is answered in it, cached like the original', async () => {
    const answer = await fetch(`${base}/images/tee.svg?w=320&fm=webp`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/webp');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=3600');
    // RIFF....WEBP: the bytes are a WebP file, not the SVG.
    expect(
      Buffer.from(await answer.arrayBuffer())
        .subarray(8, 12)
        .toString(),
    ).toBe('WEBP');
  });

  test('an image that cannot be processed sends the browser to the original', async () => {
    const answer = await fetch(`${base}/images/broken.png?w=320&fm=avif`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/images/broken.png');
  });

  test('a width or format no page offers is refused', async () => {
    expect((await fetch(`${base}/images/tee.svg?w=4000&fm=avif`)).status).toBe(400);
    expect((await fetch(`${base}/images/tee.svg?w=320&fm=tiff`)).status).toBe(400);
  });

  test('the same query on a page is no image request', async () => {
    const answer = await fetch(`${base}/acme/product/1?w=320&fm=avif`);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { astro: string }).astro).toBe('/acme/product/1?w=320&fm=avif');
  });
});
