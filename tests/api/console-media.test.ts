/**
 * Product images in the console (docs/decisions/201-console-product-images.md): uploads told by their
 * bytes (not their name or type), the size and pixel limits, another store's product, no file left by a
 * failed upload, alt text, order, the default image, delete (and its file), the audit log, and an
 * uploaded image of a restricted store served only with access, through the real front.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BuildPointer } from '../../src/front/build-pointer.ts';
import { createFrontListener } from '../../src/front/front-server.ts';
import { ImageDerivatives } from '../../src/front/image-derivatives.ts';
import { StaticFolder } from '../../src/front/static-files.ts';
import { VIP_DOMAIN_TOKEN } from '../../src/server/db/demo-data.ts';
import { IMAGE_ROUTE_MESSAGES } from '../../src/server/console/image-routes.ts';
import { IMAGE_MESSAGES } from '../../src/server/media/uploaded-image.ts';
import { operatorOf, type Operator } from './support/operator.ts';
import { startTestApp, type ApiAnswer, type TestApp } from './support/test-app.ts';
import { picture, uploadFile, type UploadedFile } from './support/uploads.ts';

let api: TestApp;
let editor: Operator;
let owner: Operator;
let vipOwner: Operator;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = path.join(await mkdtemp(path.join(tmpdir(), 'console-media-')), 'media');
  api = await startTestApp({ MEDIA_DIR: mediaDir, MEDIA_MAX_UPLOAD_MB: '0.5' });
  editor = await operatorOf(api, 'acme', 'editor@acme.test', 'editor');
  owner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
  vipOwner = await operatorOf(api, 'vip', 'owner@vip.test', 'owner');
});
afterAll(async () => api?.close());

/** The id of a product of `slug` (the first by position). */
async function productOf(slug: string): Promise<string> {
  const row = await api.db
    .selectFrom('products as p')
    .innerJoin('stores as s', 's.id', 'p.store_id')
    .select('p.id')
    .where('s.slug', '=', slug)
    .orderBy('p.position')
    .orderBy('p.id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

const imagesPath = (slug: string, productId: string) => `/admin/stores/${slug}/products/${productId}/images`;

const upload = (who: Operator, apiPath: string, file: UploadedFile, alt?: string, options?: { contract?: boolean }) =>
  uploadFile(api, who, apiPath, file, alt, options);

/** Every file (temporary ones included) in a store's media folder. */
const filesOf = async (slug: string) => (await readdir(path.join(mediaDir, slug)).catch(() => [])).sort();

describe('uploading', () => {
  test('a PNG named .jpg and labelled JPEG is stored as the PNG it is, at the end of the gallery, and audited', async () => {
    const productId = await productOf('acme');
    const before = (await editor.call('GET', imagesPath('acme', productId))).body.data;
    const answer = await upload(
      editor,
      imagesPath('acme', productId),
      { bytes: await picture('png'), name: 'photo.jpg', type: 'image/jpeg' },
      '  A green square  ',
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data).toMatchObject({
      alt: 'A green square',
      content_type: 'image/png',
      width: 240,
      height: 180,
      default: before.length === 0,
    });
    expect(answer.body.data.url).toMatch(new RegExp(`^/acme/media/${productId}-[0-9a-f]{16}\\.png$`));
    const name = answer.body.data.url.split('/').pop();
    expect(await filesOf('acme')).toContain(name);

    const gallery = (await editor.call('GET', imagesPath('acme', productId))).body.data;
    expect(gallery.at(-1).id).toBe(answer.body.data.id);
    // The storefront's product answer lists it.
    const product = await api.call('GET', `/store_front/acme/products/${productId}`);
    expect(product.body.data.attributes.images.map((i: { url: string }) => i.url)).toContain(answer.body.data.url);

    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.body.data[0]).toMatchObject({
      action: 'product.image_upload',
      actor: 'editor@acme.test',
      entity: 'product_image',
      entity_id: answer.body.data.id,
      before: null,
      after: { url: answer.body.data.url, content_type: 'image/png', alt: 'A green square' },
    });
  });

  test('a photograph is stored without its metadata (where it was taken), turned as its EXIF said', async () => {
    const productId = await productOf('acme');
    const photo = await sharp({ create: { width: 240, height: 180, channels: 3, background: '#3a6' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'PhoneCo' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const answer = await upload(editor, imagesPath('acme', productId), {
      bytes: new Uint8Array(photo),
      name: 'IMG_0001.jpg',
      type: 'image/jpeg',
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data).toMatchObject({ content_type: 'image/jpeg', width: 180, height: 240 });
    const stored = await readFile(path.join(mediaDir, 'acme', answer.body.data.url.split('/').pop()));
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(stored.includes('PhoneCo')).toBe(false);
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([180, 240, 1]);
  });

  test.each([
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
    ['avif', 'image/avif'],
  ] as const)('a %s image is accepted as %s, and shown without alt text until it has some', async (format, type) => {
    const answer = await upload(editor, imagesPath('acme', await productOf('acme')), {
      bytes: await picture(format),
      name: 'upload.bin',
      type: 'application/octet-stream',
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.content_type).toBe(type);
    expect(answer.body.data.alt).toBe('');
    // Undescribed: the catalog answer leaves its alt out, so pages name the product rather than hide it.
    const product = await api.call('GET', `/store_front/acme/products/${await productOf('acme')}`);
    const shown = product.body.data.attributes.images.find((i: { id: string }) => i.id === answer.body.data.id);
    expect(shown).toEqual({ id: answer.body.data.id, url: answer.body.data.url });
  });

  test.each([
    ['a text file named .png', 'just some words', 'notes.png', 'image/png', IMAGE_MESSAGES.notAnImage],
    [
      'an SVG',
      '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><script>alert(1)</script></svg>',
      'logo.svg',
      'image/svg+xml',
      IMAGE_MESSAGES.notAnImage,
    ],
    [
      'a GIF',
      Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
      'a.gif',
      'image/gif',
      IMAGE_MESSAGES.notAnImage,
    ],
  ])('%s is refused next to the file field, and nothing is stored', async (_, bytes, name, type, message) => {
    const productId = await productOf('acme');
    const files = await filesOf('acme');
    const answer = await upload(editor, imagesPath('acme', productId), { bytes, name, type });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual({ file: [message] });
    expect(await filesOf('acme')).toEqual(files);
  });

  test('a damaged image, a tiny one and a decompression bomb are refused with what is wrong', async () => {
    const productId = await productOf('acme');
    const png = await picture('png');
    const cut = await upload(editor, imagesPath('acme', productId), {
      bytes: png.subarray(0, png.length - 40),
      name: 'cut.png',
      type: 'image/png',
    });
    expect(cut.body.errors.file).toEqual([IMAGE_MESSAGES.unreadable]);
    const tiny = await upload(editor, imagesPath('acme', productId), {
      bytes: await picture('png', 40, 40),
      name: 'tiny.png',
      type: 'image/png',
    });
    expect(tiny.body.errors.file).toEqual([IMAGE_MESSAGES.tooSmall(40, 40)]);
    // A small PNG whose header claims 10,000 × 10,000 pixels: refused by its declared size, never decoded.
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(10_000, 16);
    bomb.writeUInt32BE(10_000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    const refused = await upload(editor, imagesPath('acme', productId), {
      bytes: bomb,
      name: 'b.png',
      type: 'image/png',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.file).toEqual([IMAGE_MESSAGES.tooManyPixels(10_000, 10_000)]);
  });

  test('a file over MEDIA_MAX_UPLOAD_MB is 413 with a clear message', async () => {
    const noise = Buffer.alloc(600 * 1024, 7);
    const answer = await upload(editor, imagesPath('acme', await productOf('acme')), {
      bytes: noise,
      name: 'big.jpg',
      type: 'image/jpeg',
    });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe(IMAGE_MESSAGES.tooLarge(0.5));
  });

  test('a body without a file is a field error', async () => {
    const answer = await editor.call('POST', imagesPath('acme', await productOf('acme')), { body: { alt: 'x' } });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual({ file: [IMAGE_ROUTE_MESSAGES.noFile] });
  });

  test('another store’s product is 404 to the upload, and nothing is stored', async () => {
    const vipProduct = await productOf('vip');
    const files = await filesOf('vip');
    const answer = await upload(editor, imagesPath('acme', vipProduct), {
      bytes: await picture('png'),
      name: 'a.png',
      type: 'image/png',
    });
    expect(answer.status).toBe(404);
    expect(
      (
        await upload(editor, imagesPath('vip', vipProduct), {
          bytes: await picture('png'),
          name: 'a.png',
          type: 'image/png',
        })
      ).status,
    ).toBe(404);
    expect(await filesOf('vip')).toEqual(files);
    expect(await filesOf('acme')).not.toContainEqual(expect.stringMatching(new RegExp(`^${vipProduct}-`)));
  });

  test('an upload whose database write fails leaves no file behind', async () => {
    const productId = await productOf('acme');
    const files = await filesOf('acme');
    const rows = await api.db.selectFrom('product_images').select('id').execute();
    await sql`create function refuse_images() returns trigger language plpgsql as $$
      begin raise exception 'the disk of the database is full'; end $$`.execute(api.db);
    await sql`create trigger refuse_images before insert on product_images
      for each row execute function refuse_images()`.execute(api.db);
    try {
      const answer = await upload(
        editor,
        imagesPath('acme', productId),
        { bytes: await picture('png'), name: 'a.png', type: 'image/png' },
        'x',
        // The API's unexpected-error answer (500), which no operation documents.
        { contract: false },
      );
      expect(answer.status).toBe(500);
    } finally {
      await sql`drop trigger refuse_images on product_images`.execute(api.db);
      await sql`drop function refuse_images()`.execute(api.db);
    }
    expect(await filesOf('acme')).toEqual(files);
    expect(await api.db.selectFrom('product_images').select('id').execute()).toEqual(rows);
  });

  test('an audit write that fails after the file was placed removes it again', async () => {
    const productId = await productOf('acme');
    const files = await filesOf('acme');
    await sql`create function refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit log unavailable'; end $$`.execute(api.db);
    await sql`create trigger refuse_audit after insert on product_images
      for each row execute function refuse_audit()`.execute(api.db);
    try {
      const answer = await upload(
        editor,
        imagesPath('acme', productId),
        { bytes: await picture('webp'), name: 'a.webp', type: 'image/webp' },
        'x',
        { contract: false },
      );
      expect(answer.status).toBe(500);
    } finally {
      await sql`drop trigger refuse_audit on product_images`.execute(api.db);
      await sql`drop function refuse_audit()`.execute(api.db);
    }
    expect(await filesOf('acme')).toEqual(files);
  });
});

describe('managing the gallery', () => {
  /** A product of acme with three fresh uploads (alt "one", "two", "three"), its images only those. */
  async function galleryOfThree() {
    const productId = String(
      (
        await api.db
          .selectFrom('products as p')
          .innerJoin('stores as s', 's.id', 'p.store_id')
          .select('p.id')
          .where('s.slug', '=', 'acme')
          .orderBy('p.id', 'desc')
          .executeTakeFirstOrThrow()
      ).id,
    );
    await api.db.deleteFrom('product_images').where('product_id', '=', Number(productId)).execute();
    await api.db.updateTable('products').set({ default_image_id: null }).where('id', '=', Number(productId)).execute();
    const ids: string[] = [];
    for (const alt of ['one', 'two', 'three']) {
      const answer = await upload(
        editor,
        imagesPath('acme', productId),
        { bytes: await picture('png'), name: 'x.png', type: 'image/png' },
        alt,
      );
      ids.push(answer.body.data.id);
    }
    return { productId, ids };
  }
  const alts = (answer: ApiAnswer) => answer.body.data.map((i: { alt: string }) => i.alt);

  test('the first upload becomes the default; moving, alt text and the default are saved and audited', async () => {
    const { productId, ids } = await galleryOfThree();
    const base = imagesPath('acme', productId);
    expect((await editor.call('GET', base)).body.data.map((i: { default: boolean }) => i.default)).toEqual([
      true,
      false,
      false,
    ]);

    const moved = await editor.call('PATCH', `${base}/${ids[2]}`, { body: { position: 0 } });
    expect(moved.status, moved.text).toBe(200);
    expect(alts(moved)).toEqual(['three', 'one', 'two']);
    const down = await editor.call('PATCH', `${base}/${ids[0]}`, { body: { position: 2 } });
    expect(alts(down)).toEqual(['three', 'two', 'one']);

    const described = await editor.call('PATCH', `${base}/${ids[1]}`, {
      body: { alt: 'Two, from the side', default: true },
    });
    expect(described.body.data[1]).toMatchObject({ alt: 'Two, from the side', default: true });
    expect(described.body.data.filter((i: { default: boolean }) => i.default)).toHaveLength(1);
    const product = await api.call('GET', `/store_front/acme/products/${productId}`);
    expect(product.body.data.attributes.default_e_commerce_image_id).toBe(ids[1]);

    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.body.data[0]).toMatchObject({
      action: 'product.image_update',
      entity_id: ids[1],
      before: { alt: 'two', position: 1, default: false },
      after: { alt: 'Two, from the side', position: 1, default: true },
    });
  });

  test('bad changes are field errors, and an image of another product is 404', async () => {
    const { productId, ids } = await galleryOfThree();
    const base = imagesPath('acme', productId);
    const empty = await editor.call('PATCH', `${base}/${ids[0]}`, { body: {} });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors)).toEqual(['alt']);
    const long = await editor.call('PATCH', `${base}/${ids[0]}`, { body: { alt: 'x'.repeat(301) } });
    expect(long.body.errors.alt).toEqual(['Alt text must be at most 300 characters.']);
    const negative = await editor.call('PATCH', `${base}/${ids[0]}`, { body: { position: -1 } });
    expect(negative.body.errors.position).toEqual(['Position must be a whole number from 0.']);
    const other = await productOf('acme');
    expect((await editor.call('PATCH', `${imagesPath('acme', other)}/${ids[0]}`, { body: { alt: 'x' } })).status).toBe(
      404,
    );
    expect((await editor.call('DELETE', `${imagesPath('acme', other)}/${ids[0]}`)).status).toBe(404);
  });

  test('deleting an image removes its file; deleting the default makes the first the default', async () => {
    const { productId, ids } = await galleryOfThree();
    const base = imagesPath('acme', productId);
    const gallery = (await editor.call('GET', base)).body.data;
    const name = gallery[0].url.split('/').pop();
    expect(await filesOf('acme')).toContain(name);
    const deleted = await editor.call('DELETE', `${base}/${ids[0]}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(alts(deleted)).toEqual(['two', 'three']);
    expect(deleted.body.data[0].default).toBe(true);
    expect(await filesOf('acme')).not.toContain(name);
    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.body.data[0]).toMatchObject({ action: 'product.image_delete', entity_id: ids[0], after: null });
  });

  test('deleting a product nothing names removes the files uploaded for it', async () => {
    const created = await editor.call('POST', '/admin/stores/acme/products', {
      body: {
        name: 'Short-lived Lamp',
        description_html: '',
        option_names: ['Size'],
        variant: { sku: 'LAMP-ONE', name: 'One size', options: { Size: 'One' }, price: '30.00', stock: 0 },
      },
    });
    expect(created.status, created.text).toBe(201);
    const base = imagesPath('acme', created.body.data.id);
    const names: string[] = [];
    for (const alt of ['front', 'side']) {
      const answer = await upload(editor, base, { bytes: await picture('png'), name: 'x.png', type: 'image/png' }, alt);
      names.push(answer.body.data.url.split('/').pop());
    }
    expect(await filesOf('acme')).toEqual(expect.arrayContaining(names));
    const removed = await editor.call(
      'DELETE',
      `/admin/stores/acme/products/${created.body.data.id}?version=${created.body.data.version}`,
    );
    expect(removed.body.data).toEqual({ id: created.body.data.id, outcome: 'deleted' });
    const left = await filesOf('acme');
    for (const name of names) expect(left).not.toContain(name);
  });

  test('a file another image still shows is kept when one of them is deleted; an imported file is never deleted', async () => {
    const { productId, ids } = await galleryOfThree();
    const base = imagesPath('acme', productId);
    const url = (await editor.call('GET', base)).body.data[1].url;
    const name = url.split('/').pop();
    // The import (or anything else) naming the same file for another product.
    await api.db
      .insertInto('product_images')
      .values({ product_id: Number(await productOf('acme')), url, alt: 'shared', position: 99 })
      .execute();
    await editor.call('DELETE', `${base}/${ids[1]}`);
    expect(await filesOf('acme')).toContain(name);
  });

  test('an editor of another store gets 404 for this store’s images', async () => {
    const { productId, ids } = await galleryOfThree();
    const base = imagesPath('acme', productId);
    expect((await vipOwner.call('GET', base)).status).toBe(404);
    expect((await vipOwner.call('PATCH', `${base}/${ids[0]}`, { body: { alt: 'mine' } })).status).toBe(404);
    expect((await vipOwner.call('DELETE', `${base}/${ids[0]}`)).status).toBe(404);
    expect(
      (await upload(vipOwner, base, { bytes: await picture('png'), name: 'a.png', type: 'image/png' })).status,
    ).toBe(404);
    expect((await editor.call('GET', base)).body.data).toHaveLength(3);
  });
});

describe('a restricted store’s uploaded image', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'console-media-front-'));
    const listener = createFrontListener({
      apiFetch: (request) => api.fetch(request),
      astroHandler: async (_req, res) => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      },
      assets: new StaticFolder(path.join(dir, 'client')),
      builds: new BuildPointer(path.join(dir, 'builds')),
      domains: {},
      media: api.deps.media,
      images: new ImageDerivatives(path.join(dir, 'image-cache')),
    });
    server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server?.close(() => resolve())));

  test('is served with the store’s access or to its operators, privately, and refused without; its derivatives too', async () => {
    const answer = await upload(
      vipOwner,
      imagesPath('vip', await productOf('vip')),
      {
        bytes: await picture('jpeg'),
        name: 'watch.jpg',
        type: 'image/jpeg',
      },
      'The watch from above',
    );
    expect(answer.status, answer.text).toBe(201);
    const url: string = answer.body.data.url;
    expect(url).toMatch(/^\/vip\/media\//);

    const without = await fetch(`${base}${url}`);
    expect(without.status).toBe(403);
    expect((await fetch(`${base}${url}?w=320&fm=webp`)).status).toBe(403);

    const access = { cookie: `allowed-domain-token=${VIP_DOMAIN_TOKEN}` };
    const withAccess = await fetch(`${base}${url}`, { headers: access });
    expect(withAccess.status).toBe(200);
    expect(withAccess.headers.get('content-type')).toBe('image/jpeg');
    expect(withAccess.headers.get('cache-control')).toBe('private, no-store');
    const derivative = await fetch(`${base}${url}?w=160&fm=webp`, { headers: access });
    expect(derivative.status).toBe(200);
    expect(derivative.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await derivative.arrayBuffer())).metadata()).width).toBe(160);

    // The store's operators see it on their console pages; another store's operator does not.
    const operator = await fetch(`${base}${url}?w=160&fm=webp`, { headers: { cookie: vipOwner.cookie } });
    expect(operator.status).toBe(200);
    expect(operator.headers.get('cache-control')).toBe('private, no-store');
    expect((await fetch(`${base}${url}`, { headers: { cookie: editor.cookie } })).status).toBe(403);
    expect((await fetch(`${base}${url}`, { headers: { cookie: 'admin_session=forged-session-id' } })).status).toBe(403);
  });
});
