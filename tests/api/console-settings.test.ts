/**
 * A store's settings in the console (docs/decisions/203-console-store-settings.md): owners only, saved
 * whole with the version the form was opened at, by the catalog import's rules (policies sanitised), the
 * custom domain one store's only, every change audited, and the storefront's answers showing a save at once.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ConsoleStoreSettings, One } from '../../src/lib/contract/answers.ts';
import { CONSOLE_MESSAGES } from '../../src/server/console/routes.ts';
import { importCatalog } from '../../src/server/catalog/import.ts';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { SETTINGS_MESSAGES } from '../../src/server/console/settings-routes.ts';
import { IMAGE_MESSAGES } from '../../src/server/media/uploaded-image.ts';
import { operatorOf, type Operator } from './support/operator.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { picture, uploadFile } from './support/uploads.ts';

let api: TestApp;
let owner: Operator;
let editor: Operator;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = path.join(await mkdtemp(path.join(tmpdir(), 'console-settings-')), 'media');
  api = await startTestApp({ MEDIA_DIR: mediaDir });
  owner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
  editor = await operatorOf(api, 'acme', 'editor@acme.test', 'editor');
});
afterAll(async () => api?.close());

const S = '/admin/stores/acme/settings';

/** The settings form as the page sends it back: the loaded settings with `changes` on top. */
async function formOf(changes: Record<string, unknown> = {}): Promise<ConsoleStoreSettings & Record<string, unknown>> {
  const { body } = await owner.call<One<ConsoleStoreSettings>>('GET', S);
  return { ...body.data, ...changes };
}

const auditEntries = () =>
  api.db.selectFrom('audit_log').selectAll().where('action', '=', 'store.settings_update').orderBy('id').execute();

describe('reading and saving', () => {
  test('an owner reads the settings in the catalog format’s fields, with a version', async () => {
    const answer = await owner.call('GET', S);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      title: 'Acme Supply Co.',
      custom_domain: 'shop.acme.test',
      shipping_flat: '5.99',
      free_shipping_threshold: '75.00',
      low_stock_threshold: 5,
      contact_email: 'help@acme.test',
    });
    expect(answer.body.data.version).toBeGreaterThanOrEqual(1);
    expect(answer.body.data.tax_rates).toContainEqual({ country: 'CA', region: 'ON', rate_bps: 1300 });
    expect(answer.body.data.shipping_zones).toContainEqual({
      name: 'Canada',
      countries: ['CA'],
      rate: '12.00',
      free_shipping_threshold: '150.00',
    });
    expect(Object.keys(answer.body.data.policies)).toEqual(['shipping', 'returns', 'privacy', 'terms']);
  });

  test('a saved title and policy reach the storefront’s answers at once, sanitised, and are audited', async () => {
    // Read first, so the store cache holds the old row.
    expect((await api.call('GET', '/store_front/acme')).body.data.attributes.title).toBe('Acme Supply Co.');
    const form = await formOf();
    const saved = await owner.call('PUT', S, {
      body: {
        ...form,
        title: '  Acme Goods ',
        policies: { ...form.policies, returns: '<p>Sixty days.<script>alert(1)</script></p>', terms: undefined },
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data).toMatchObject({ title: 'Acme Goods', version: form.version + 1 });
    expect(saved.body.data.policies.returns).toBe('<p>Sixty days.</p>');
    expect(saved.body.data.policies.terms).toBeUndefined();

    const store = (await api.call('GET', '/store_front/acme')).body.data.attributes;
    expect(store.title).toBe('Acme Goods');
    expect(store.policies).toEqual(['shipping', 'returns', 'privacy']);
    const returns = await api.call('GET', '/store_front/acme/policies/returns');
    expect(returns.body.data.attributes.bodyHtml).toBe('<p>Sixty days.</p>');
    expect((await api.call('GET', '/store_front/acme/policies/terms')).status).toBe(404);

    const entry = (await auditEntries()).at(-1)!;
    expect(entry).toMatchObject({ actor: 'owner@acme.test', entity: 'store' });
    // Only what changed: the untouched policies and rates are not copied into the log.
    expect(Object.keys(entry.after as object).sort()).toEqual(['policies', 'title']);
    expect(entry.before).toMatchObject({ title: 'Acme Supply Co.' });
    expect(entry.after).toMatchObject({ title: 'Acme Goods' });
  });

  test('tax, shipping and the low-stock threshold are saved in the import’s units and reach the store and the product list', async () => {
    const saved = await owner.call('PUT', S, {
      body: await formOf({
        tax_rate_bps: 250,
        shipping_flat: '4.5',
        free_shipping_threshold: null,
        tax_rates: [{ country: 'us', region: 'ny', rate_bps: 888 }],
        shipping_zones: [{ name: 'Everywhere', countries: ['*'], rate: '9', free_shipping_threshold: '100' }],
        low_stock_threshold: 1_000_000,
      }),
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data).toMatchObject({
      tax_rate_bps: 250,
      shipping_flat: '4.50',
      free_shipping_threshold: null,
      tax_rates: [{ country: 'US', region: 'NY', rate_bps: 888 }],
      shipping_zones: [{ name: 'Everywhere', countries: ['*'], rate: '9.00', free_shipping_threshold: '100.00' }],
      low_stock_threshold: 1_000_000,
    });
    expect((await api.call('GET', '/store_front/acme')).body.data.attributes.lowStockThreshold).toBe(1_000_000);
    const flagged = await owner.call('GET', '/admin/stores/acme/products');
    expect(flagged.body.data.every((p: { low_stock: boolean }) => p.low_stock)).toBe(true);

    await owner.call('PUT', S, { body: await formOf({ low_stock_threshold: 0 }) });
    const none = await owner.call('GET', '/admin/stores/acme/products');
    expect(none.body.data.some((p: { low_stock: boolean }) => p.low_stock)).toBe(false);
  });

  test('policies longer than the API’s usual 64 KB body limit are saved', async () => {
    const long = `<p>${'Words of the terms. '.repeat(2_400)}</p>`;
    const saved = await owner.call('PUT', S, {
      body: await formOf({ policies: { shipping: long, returns: long, privacy: long, terms: long } }),
    });
    expect(saved.status, saved.text.slice(0, 200)).toBe(200);
    expect(saved.body.data.policies.terms).toBe(long);
  });

  test('a save that changes nothing writes no audit entry and keeps the version', async () => {
    const form = await formOf();
    const before = (await auditEntries()).length;
    const saved = await owner.call('PUT', S, { body: form });
    expect(saved.status).toBe(200);
    expect(saved.body.data.version).toBe(form.version);
    expect(await auditEntries()).toHaveLength(before);
  });
});

describe('concurrency', () => {
  test('a save from an older version is 409 and writes nothing', async () => {
    const stale = await formOf();
    expect((await owner.call('PUT', S, { body: { ...stale, title: 'First' } })).status).toBe(200);
    const second = await owner.call('PUT', S, { body: { ...stale, title: 'Second' } });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe(SETTINGS_MESSAGES.stale);
    expect((await owner.call('GET', S)).body.data.title).toBe('First');
  });

  test('an import of the store makes a form opened before it stale', async () => {
    const stale = await formOf();
    await importCatalog(
      api.db,
      parseCatalog({ store: { slug: 'acme', title: 'Imported title', custom_domain: 'shop.acme.test' } }),
    );
    const answer = await owner.call('PUT', S, { body: { ...stale, title: 'Console title' } });
    expect(answer.status).toBe(409);
    expect((await owner.call('GET', S)).body.data.title).toBe('Imported title');
  });
});

describe('the custom domain', () => {
  test('is stored as hosts are looked up, and the storefront finds the store by it at once', async () => {
    const saved = await owner.call('PUT', S, { body: await formOf({ custom_domain: 'Shop.Acme-Goods.TEST.' }) });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.custom_domain).toBe('shop.acme-goods.test');
    const found = await api.call('GET', '/store_front?custom_domain=shop.acme-goods.test');
    expect(found.body.data.attributes.slug).toBe('acme');
    expect((await api.call('GET', '/store_front?custom_domain=shop.acme.test')).status).toBe(404);
  });

  test('another store’s domain is 409 and nothing is written', async () => {
    const form = await formOf();
    const answer = await owner.call('PUT', S, { body: { ...form, custom_domain: 'members.vip.test', title: 'Taken' } });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe(SETTINGS_MESSAGES.domainTaken);
    expect(answer.body.message).toContain('already used by another store');
    expect((await owner.call('GET', S)).body.data).toMatchObject({ title: form.title, version: form.version });
  });

  test('two stores claiming one new domain at once: one gets it, the other 409', async () => {
    const vipOwner = await operatorOf(api, 'vip', 'owner@vip.test', 'owner');
    const V = '/admin/stores/vip/settings';
    const [acmeForm, vipForm] = await Promise.all([formOf(), vipOwner.call('GET', V).then((a) => a.body.data)]);
    const answers = await Promise.all([
      owner.call('PUT', S, { body: { ...acmeForm, custom_domain: 'shared.example.org' } }),
      vipOwner.call('PUT', V, { body: { ...vipForm, custom_domain: 'shared.example.org' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.message).toBe(SETTINGS_MESSAGES.domainTaken);
    const holders = await api.db
      .selectFrom('stores')
      .select('slug')
      .where('custom_domain', '=', 'shared.example.org')
      .execute();
    expect(holders).toHaveLength(1);
  });

  test('may be cleared', async () => {
    const saved = await owner.call('PUT', S, { body: await formOf({ custom_domain: null }) });
    expect(saved.body.data.custom_domain).toBeNull();
  });
});

describe('bad input', () => {
  test.each([
    ['title', { title: '  ' }],
    ['favicon_url', { favicon_url: 'javascript:alert(1)' }],
    ['custom_domain', { custom_domain: 'localhost' }],
    ['custom_domain', { custom_domain: '10.0.0.1' }],
    ['custom_domain', { custom_domain: 'shop.test' }],
    ['tax_rate_bps', { tax_rate_bps: 10_001 }],
    ['shipping_flat', { shipping_flat: '1.005' }],
    ['free_shipping_threshold', { free_shipping_threshold: '-1' }],
    ['tax_rates.0.country', { tax_rates: [{ country: 'XX', region: null, rate_bps: 100 }] }],
    ['tax_rates.0.region', { tax_rates: [{ country: 'US', region: 'ZZ', rate_bps: 100 }] }],
    [
      'tax_rates',
      {
        tax_rates: [
          { country: 'US', region: null, rate_bps: 100 },
          { country: 'us', region: null, rate_bps: 200 },
        ],
      },
    ],
    ['shipping_zones.0.countries', { shipping_zones: [{ name: 'A', countries: [], rate: '1.00' }] }],
    [
      'shipping_zones',
      {
        shipping_zones: [
          { name: 'A', countries: ['US'], rate: '1.00' },
          { name: 'B', countries: ['US'], rate: '2.00' },
        ],
      },
    ],
    ['policies', { policies: { cookies: '<p>Yum</p>' } }],
    ['policies.terms', { policies: { terms: '   ' } }],
    ['contact_email', { contact_email: 'not an address' }],
    ['low_stock_threshold', { low_stock_threshold: -1 }],
    ['version', { version: 'one' }],
  ])('%s is refused next to its field, nothing written', async (field, changes) => {
    const form = await formOf();
    const answer = await owner.call('PUT', S, { body: { ...form, ...changes } });
    expect(answer.status, answer.text).toBe(422);
    expect(Object.keys(answer.body.errors)).toContain(field);
    expect((await owner.call('GET', S)).body.data).toEqual(form);
  });

  test('the platform’s or the site’s own domain is refused', async () => {
    const app = await startTestApp({ SHOP_DOMAIN: 'shop.example.com', PLATFORM_DOMAIN: 'onrender.com' });
    try {
      const own = await operatorOf(app, 'acme', 'owner@acme.test', 'owner');
      const form = (await own.call('GET', S)).body.data;
      for (const domain of ['acme.shop.example.com', 'acme.onrender.com']) {
        const answer = await own.call('PUT', S, { body: { ...form, custom_domain: domain } });
        expect(answer.status).toBe(422);
        expect(answer.body.errors.custom_domain).toEqual([SETTINGS_MESSAGES.siteDomain]);
      }
    } finally {
      await app.close();
    }
  });
});

describe('roles', () => {
  test('an editor can neither read nor save the settings', async () => {
    const form = await formOf();
    const read = await editor.call('GET', S);
    expect(read.status).toBe(403);
    expect(read.body.message).toBe(CONSOLE_MESSAGES.ownersOnly);
    const write = await editor.call('PUT', S, { body: { ...form, title: 'Editor’s title' } });
    expect(write.status).toBe(403);
    expect(write.body.message).toBe(CONSOLE_MESSAGES.ownersOnly);
    expect((await owner.call('GET', S)).body.data.title).toBe(form.title);
  });
});

describe('the favicon', () => {
  const F = `${S}/favicon`;
  /** Every file (temporary ones included) in acme's media folder. */
  const files = async () => (await readdir(path.join(mediaDir, 'acme')).catch(() => [])).sort();
  const png = async (width: number, height = width) => ({
    bytes: await picture('png', width, height),
    name: 'icon.png',
    type: 'image/png',
  });

  test('an uploaded square image becomes the store’s favicon at once, and a new one replaces its file', async () => {
    const first = await uploadFile(api, owner, F, await png(32));
    expect(first.status, first.text).toBe(201);
    const url = first.body.data.favicon_url as string;
    expect(url).toMatch(/^\/acme\/media\/favicon-[0-9a-f]{16}\.png$/);
    expect((await api.call('GET', '/store_front/acme')).body.data.attributes.faviconImage).toBe(url);
    expect(await files()).toEqual([path.basename(url)]);
    const entry = (
      await api.db.selectFrom('audit_log').selectAll().where('action', '=', 'store.favicon_upload').execute()
    ).at(-1)!;
    expect(entry.after).toMatchObject({ favicon_url: url, content_type: 'image/png', width: 32 });

    const second = await uploadFile(api, owner, F, {
      bytes: await picture('webp', 64, 64),
      name: 'x.png',
      type: 'image/png',
    });
    expect(second.status).toBe(201);
    expect(second.body.data.favicon_url).toMatch(/\.webp$/);
    // The first file is shown by nothing any more: it is gone.
    expect(await files()).toEqual([path.basename(second.body.data.favicon_url)]);

    // A form saved with a favicon of the catalog's lets the uploaded file go too.
    const saved = await owner.call('PUT', S, { body: await formOf({ favicon_url: '/images/demo/acme-favicon.svg' }) });
    expect(saved.status).toBe(200);
    expect(await files()).toEqual([]);
  });

  test.each([
    ['a wide image', () => png(64, 32), SETTINGS_MESSAGES.notSquare(64, 32)],
    ['a tiny one', () => png(8), IMAGE_MESSAGES.tooSmall(8, 8, { minSide: 16, what: 'favicons' })],
    [
      'an SVG',
      async () => ({ bytes: '<svg xmlns="http://www.w3.org/2000/svg"/>', name: 'a.svg', type: 'image/svg+xml' }),
      IMAGE_MESSAGES.notAnImage,
    ],
  ])('%s is refused next to the file field, and nothing is stored', async (_, file, message) => {
    const before = await formOf();
    const answer = await uploadFile(api, owner, F, await file());
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual({ file: [message] });
    expect(await files()).toEqual([]);
    expect(await formOf()).toEqual(before);
  });

  test('an upload whose database write fails leaves no file behind', async () => {
    const before = await formOf();
    await sql`create function refuse_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit log unavailable'; end $$`.execute(api.db);
    await sql`create trigger refuse_audit before insert on audit_log
      for each row execute function refuse_audit()`.execute(api.db);
    try {
      // The API's unexpected-error answer (500), which no operation documents.
      const answer = await uploadFile(api, owner, F, await png(32), undefined, { contract: false });
      expect(answer.status).toBe(500);
    } finally {
      await sql`drop trigger refuse_audit on audit_log`.execute(api.db);
      await sql`drop function refuse_audit()`.execute(api.db);
    }
    expect(await files()).toEqual([]);
    expect(await formOf()).toEqual(before);
  });

  test('an editor cannot upload one', async () => {
    const answer = await uploadFile(api, editor, F, await png(32));
    expect(answer.status).toBe(403);
    expect(await files()).toEqual([]);
  });
});
