/**
 * Stores' media in an S3-compatible bucket (docs/decisions/205-s3-media-storage.md), against a local stand-in:
 * the console's uploads go to the bucket and not to MEDIA_DIR, the front serves them (and their derivatives)
 * only with the store's access, files the bucket has not got still come from MEDIA_DIR, and a deleted image's
 * object goes.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BuildPointer } from '../../src/front/build-pointer.ts';
import { createFrontListener } from '../../src/front/front-server.ts';
import { ImageDerivatives } from '../../src/front/image-derivatives.ts';
import { StaticFolder } from '../../src/front/static-files.ts';
import { VIP_DOMAIN_TOKEN } from '../../src/server/db/demo-data.ts';
import { MediaFolder } from '../../src/server/media/media-folder.ts';
import { openMediaStorage } from '../../src/server/media/open-media.ts';
import { startFakeS3, type FakeS3 } from './support/fake-s3.ts';
import { operatorOf, siteOrigin, type Operator } from './support/operator.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const ACCESS_KEY = 'test-access-key';
let s3: FakeS3;
let api: TestApp;
let owner: Operator;
let mediaDir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  s3 = await startFakeS3(ACCESS_KEY);
  const dir = await mkdtemp(path.join(tmpdir(), 's3-media-'));
  mediaDir = path.join(dir, 'media');
  const env = {
    MEDIA_DIR: mediaDir,
    S3_BUCKET: 'shop-media',
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: 'eu-west-1',
    S3_ACCESS_KEY_ID: ACCESS_KEY,
    S3_SECRET_ACCESS_KEY: 'test-secret',
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: 'media/',
  };
  api = await startTestApp(env);
  owner = await operatorOf(api, 'vip', 'owner@vip.test', 'owner');
  // The front opens its own storage from the same settings, as `npm start` does.
  const listener = createFrontListener({
    apiFetch: (request) => api.fetch(request),
    astroHandler: async (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    },
    assets: new StaticFolder(path.join(dir, 'client')),
    builds: new BuildPointer(path.join(dir, 'builds')),
    domains: {},
    media: openMediaStorage(api.config),
    images: new ImageDerivatives(path.join(dir, 'image-cache')),
  });
  server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await api?.close();
  await s3?.close();
});

async function vipProduct(): Promise<string> {
  const row = await api.db
    .selectFrom('products as p')
    .innerJoin('stores as s', 's.id', 'p.store_id')
    .select('p.id')
    .where('s.slug', '=', 'vip')
    .orderBy('p.id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

async function upload(productId: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'watch.png');
  form.append('alt', 'The watch');
  const response = await fetch(`${api.baseUrl}/admin/stores/vip/products/${productId}/images`, {
    method: 'POST',
    headers: { cookie: owner.cookie, origin: siteOrigin(api), 'x-csrf-token': owner.csrf },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { data: { id: string; url: string } }).data;
}

const withAccess = { headers: { cookie: `allowed-domain-token=${VIP_DOMAIN_TOKEN}` } };

describe('with S3_BUCKET set', () => {
  test('an upload goes to the bucket, not MEDIA_DIR, and is served only with the store’s access; its delete removes it', async () => {
    const bytes = await sharp({ create: { width: 240, height: 180, channels: 3, background: '#357' } })
      .png()
      .toBuffer();
    const productId = await vipProduct();
    const image = await upload(productId, bytes);
    const name = image.url.split('/').pop()!;
    const object = s3.objects.get(`shop-media/media/vip/${name}`);
    expect(object?.body.equals(bytes)).toBe(true);
    expect(object?.type).toBe('image/png');
    expect(await readdir(path.join(mediaDir, 'vip')).catch(() => [])).toEqual([]);

    expect((await fetch(`${base}${image.url}`)).status).toBe(403);
    const served = await fetch(`${base}${image.url}`, withAccess);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    const etag = served.headers.get('etag')!;
    const again = await fetch(`${base}${image.url}`, { headers: { ...withAccess.headers, 'if-none-match': etag } });
    expect(again.status).toBe(304);

    expect((await fetch(`${base}${image.url}?w=160&fm=webp`)).status).toBe(403);
    const derivative = await fetch(`${base}${image.url}?w=160&fm=webp`, withAccess);
    expect(derivative.status).toBe(200);
    expect(derivative.headers.get('content-type')).toBe('image/webp');
    expect(derivative.headers.get('cache-control')).toBe('private, no-store');
    expect((await sharp(Buffer.from(await derivative.arrayBuffer())).metadata()).width).toBe(160);

    const deleted = await owner.call('DELETE', `/admin/stores/vip/products/${productId}/images/${image.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(s3.objects.has(`shop-media/media/vip/${name}`)).toBe(false);
    expect((await fetch(`${base}${image.url}`, withAccess)).status).toBe(404);
  });

  test('a file the bucket has not got comes from MEDIA_DIR, behind the same access check', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
    const url = await new MediaFolder(mediaDir).write('vip', 'shipped.svg', svg);
    expect((await fetch(`${base}${url}`)).status).toBe(403);
    const served = await fetch(`${base}${url}`, withAccess);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(svg);
  });
});
