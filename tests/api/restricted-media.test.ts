/**
 * A restricted store's media are served only with access, like its API answers: through the real
 * front (createFrontListener) and the real API on this file's database, over HTTP, for every way a
 * shopper could ask without access (no cookie, wrong or foreign tokens, unverified browser token,
 * path tricks, the custom domain). Runs on PGlite and on PostgreSQL.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BuildPointer } from '../../src/front/build-pointer.ts';
import { ImageDerivatives } from '../../src/front/image-derivatives.ts';
import { createFrontListener } from '../../src/front/front-server.ts';
import { StaticFolder } from '../../src/front/static-files.ts';
import { VIP_DOMAIN_TOKEN, VIP_RECIPIENT } from '../../src/server/db/demo-data.ts';
import { MediaFolder } from '../../src/server/media/media-folder.ts';
import { report } from './support/figures.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const WATCH = '<svg xmlns="http://www.w3.org/2000/svg"><text>VIP Reserve Chronograph</text></svg>';
const MUG = '<svg xmlns="http://www.w3.org/2000/svg"><text>Stoneware Mug</text></svg>';
const DRAWING =
  '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800"><circle cx="400" cy="400" r="300"/></svg>';

let api: TestApp;
let server: Server;
let base: string;
const figures = { withoutAccess: 0, servedWithoutAccess: 0, withAccess: 0, servedWithAccess: 0 };

beforeAll(async () => {
  api = await startTestApp();
  const dir = await mkdtemp(path.join(tmpdir(), 'media-front-'));
  const media = new MediaFolder(path.join(dir, 'media'));
  await media.write('vip', 'vip-reserve-watch-1.svg', WATCH);
  await media.write('acme', 'mug-1.svg', MUG);
  await media.write('vip', 'vip-reserve-watch-2.svg', DRAWING);
  await media.write('vip', 'vip-reserve-broken.png', 'not a png');
  await media.write('acme', 'mug-2.svg', DRAWING);
  // Something beside the media folder that a path trick might reach.
  await writeFile(path.join(dir, 'secret.svg'), WATCH);
  await mkdir(path.join(dir, 'client'), { recursive: true });
  const listener = createFrontListener({
    apiFetch: (request) => api.fetch(request),
    // Astro has no page under /{slug}/media/: whatever reaches it is its not-found page.
    astroHandler: async (req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`Page not found: ${req.url}`);
    },
    assets: new StaticFolder(path.join(dir, 'client')),
    builds: new BuildPointer(path.join(dir, 'builds')),
    domains: {},
    media,
    images: new ImageDerivatives(path.join(dir, 'image-cache')),
  });
  server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  report('restricted-media', {
    requests_without_access: figures.withoutAccess,
    served_without_access: figures.servedWithoutAccess,
    requests_with_access: figures.withAccess,
    served_with_access: figures.servedWithAccess,
    violations: figures.servedWithoutAccess + (figures.withAccess - figures.servedWithAccess),
  });
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await api?.close();
});

type Answer = {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
};

/** GET through node:http, which lets the test set Host and Cookie and send paths exactly as written. */
function get(pathname: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    httpRequest(base + pathname, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

const served = (answer: Answer) => answer.status === 200 && answer.body.includes('VIP Reserve');

describe('a restricted store’s media', () => {
  const watch = '/vip/media/vip-reserve-watch-1.svg';
  const attempts: [string, string, Record<string, string>][] = [
    ['no cookie', watch, {}],
    ['a recipient uuid not on the list', watch, { cookie: `allowed-recipient-token=${crypto.randomUUID()}` }],
    ['a wrong domain token', watch, { cookie: 'allowed-domain-token=not-the-token' }],
    ['a browser token never verified', watch, { cookie: 'browser_token=never-verified-0123456789' }],
    [
      'the tokens sent as headers (the front reads cookies)',
      watch,
      { 'allowed-domain-token': VIP_DOMAIN_TOKEN, 'allowed-recipient-token': VIP_RECIPIENT.uuid },
    ],
    ['a token in the query string', `${watch}?token=${VIP_DOMAIN_TOKEN}`, {}],
    ['the upper-case slug', '/VIP/media/vip-reserve-watch-1.svg', {}],
    ['a public store’s path climbing into it', '/acme/media/..%2Fvip%2Fvip-reserve-watch-1.svg', {}],
    ['a dot-segment path', '/acme/media/../../vip/media/vip-reserve-watch-1.svg', {}],
    ['an encoded dot-segment path', '/acme/%2e%2e/vip/media/vip-reserve-watch-1.svg', {}],
    ['a path out of the media folder', '/vip/media/..%2F..%2Fsecret.svg', {}],
    ['the custom domain without a cookie', '/media/vip-reserve-watch-1.svg', { host: 'members.vip.test' }],
    [
      'the custom domain with a wrong token',
      '/media/vip-reserve-watch-1.svg',
      { host: 'members.vip.test', cookie: 'allowed-domain-token=wrong-token' },
    ],
    ['the slug path on the custom domain without a cookie', watch, { host: 'members.vip.test' }],
    ['a public store’s domain', '/media/vip-reserve-watch-1.svg', { host: 'shop.acme.test' }],
  ];

  test.each(attempts)('is not served with %s', async (_, pathname, headers) => {
    const answer = await get(pathname, headers);
    figures.withoutAccess++;
    if (served(answer)) figures.servedWithoutAccess++;
    expect(answer.status, `${pathname} → ${answer.status} ${answer.body}`).not.toBe(200);
    expect(answer.body).not.toContain('VIP Reserve');
  });

  test.each([
    ['the invited recipient’s cookie', watch, { cookie: `allowed-recipient-token=${VIP_RECIPIENT.uuid}` }],
    ['the domain token cookie', watch, { cookie: `allowed-domain-token=${VIP_DOMAIN_TOKEN}` }],
    [
      'the domain token on the custom domain, unprefixed',
      '/media/vip-reserve-watch-1.svg',
      { host: 'members.vip.test', cookie: `allowed-domain-token=${VIP_DOMAIN_TOKEN}` },
    ],
    [
      'the domain token on the custom domain, by slug',
      watch,
      { host: 'members.vip.test.', cookie: `allowed-domain-token=${VIP_DOMAIN_TOKEN}` },
    ],
  ])('is served with %s, never to a shared cache', async (_, pathname, headers) => {
    const answer = await get(pathname, headers);
    figures.withAccess++;
    if (served(answer)) figures.servedWithAccess++;
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(WATCH);
    expect(answer.headers['content-type']).toBe('image/svg+xml');
    expect(answer.headers['cache-control']).toBe('private, no-store');
    // An SVG is a document: it carries the content security policy like a page.
    expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
  });

  test('without access the answer is 403, for a missing file or store 404; neither is cached', async () => {
    const denied = await get(watch);
    expect(denied.status).toBe(403);
    expect(denied.headers['cache-control']).toBe('no-store');
    const unknownFile = await get('/vip/media/nothing-here.svg', {
      cookie: `allowed-domain-token=${VIP_DOMAIN_TOKEN}`,
    });
    expect(unknownFile.status).toBe(404);
    expect((await get('/no-such-store/media/a.svg')).status).toBe(404);
  });
});

test('a public store’s media are served to anyone and may be cached', async () => {
  const answer = await get('/acme/media/mug-1.svg');
  expect(answer.status).toBe(200);
  expect(answer.body).toBe(MUG);
  expect(answer.headers['cache-control']).toBe('public, max-age=300');
  expect((await get('/media/mug-1.svg', { host: 'shop.acme.test' })).body).toBe(MUG);
});

/** GET that keeps the body's bytes (derivatives are binary). */
function getBytes(pathname: string, headers: Record<string, string> = {}): Promise<Answer & { bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(base + pathname, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString(), bytes });
      });
    })
      .on('error', reject)
      .end();
  });
}

describe('a restricted store’s image derivatives (docs/decisions/184-responsive-image-derivatives.md)', () => {
  const avif = '/vip/media/vip-reserve-watch-2.svg?w=320&fm=avif';
  const access = { cookie: `allowed-domain-token=${VIP_DOMAIN_TOKEN}` };

  test.each([
    ['no cookie', avif, {}],
    ['a wrong domain token', avif, { cookie: 'allowed-domain-token=not-the-token' }],
    [
      'the custom domain without a cookie',
      '/media/vip-reserve-watch-2.svg?w=320&fm=webp',
      { host: 'members.vip.test' },
    ],
  ])('are refused with %s', async (_, pathname, headers) => {
    const answer = await getBytes(pathname, headers);
    figures.withoutAccess++;
    if (answer.status === 200) figures.servedWithoutAccess++;
    // 403 on the slug path; the custom domain sends the shopper to its restricted page first.
    expect([302, 403]).toContain(answer.status);
    expect(answer.headers['content-type'] ?? '').not.toMatch(/^image\//);
  });

  test.each([
    ['the domain token cookie', avif, access, 'image/avif'],
    [
      'the domain token on the custom domain',
      '/media/vip-reserve-watch-2.svg?w=640&fm=webp',
      { ...access, host: 'members.vip.test' },
      'image/webp',
    ],
  ])('are served with %s, never to a shared cache', async (_, pathname, headers, type) => {
    const answer = await getBytes(pathname, headers);
    figures.withAccess++;
    if (answer.status === 200) figures.servedWithAccess++;
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(type);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const width = Number(new URL(pathname, base).searchParams.get('w'));
    expect((await sharp(answer.bytes).metadata()).width).toBe(width);
  });

  test('a file that cannot be processed is answered with its original, never a broken image', async () => {
    const answer = await getBytes('/vip/media/vip-reserve-broken.png?w=320&fm=avif', access);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/vip/media/vip-reserve-broken.png');
  });

  test('a size or format the pages never ask for is refused before any work', async () => {
    expect((await getBytes('/vip/media/vip-reserve-watch-2.svg?w=333&fm=avif', access)).status).toBe(400);
    expect((await getBytes('/acme/media/mug-2.svg?w=320&fm=gif')).status).toBe(400);
  });
});

test('a public store’s image derivatives are served to anyone and may be cached like the original', async () => {
  const answer = await getBytes('/acme/media/mug-2.svg?w=160&fm=webp');
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('image/webp');
  expect(answer.headers['cache-control']).toBe('public, max-age=300');
});
