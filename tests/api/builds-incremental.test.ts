/**
 * Incremental builds (docs/decisions/211-incremental-builds.md), on the real Astro pages of the demo
 * store: after each kind of catalog change, a build that re-renders only the pages whose API answers
 * changed is, file for file, the full build's (the build-id files aside), and every page it did not
 * render is a hard link of the live build's files, or the same bytes kept in the spare build it recycled
 * (docs/decisions/220-recycled-build-folders.md).
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { astroBuildIsStale } from '../../src/front/astro-build.ts';
import { manifestObjects, readManifest, sha256Of } from '../../src/front/build-manifest.ts';
import type { FrontLocals } from '../../src/front/front-server.ts';
import type { Storefront } from '../../src/front/start-storefront.ts';
import type { SnapshotResult } from '../../src/front/snapshot.ts';
import { startTestStorefront, type TestStorefront } from './support/test-storefront.ts';

/**
 * Whether a file is one every build writes for itself, naming it (the build-id files, and the manifest and
 * `_headers` of docs/decisions/212-builds-as-static-artifacts.md): the rest must match byte for byte.
 */
const isOwnFile = (name: string) => name.startsWith('builds/') || name === '_manifest.json' || name === '_headers';

const fileIdentity = ({ ino, birthtimeMs }: { ino: number; birthtimeMs: number }) => `${ino}@${birthtimeMs}`;

/**
 * Every file of a build folder, relative, with its identity: its inode and the time it was made (a file
 * written where one was just deleted may get the freed inode's number).
 */
async function filesOf(buildsDir: string, id: string): Promise<Map<string, string>> {
  const root = path.join(buildsDir, id);
  const names = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
  return new Map(
    await Promise.all(names.map(async (name) => [name, fileIdentity(await stat(path.join(root, name)))] as const)),
  );
}

/** Every folder of a build folder, relative: an incremental build makes the live build's before it knows its pages. */
async function foldersOf(buildsDir: string, id: string): Promise<string[]> {
  const root = path.join(buildsDir, id);
  return (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The spare build kept for the next incremental build to recycle, if there is one. */
async function spareOf(buildsDir: string): Promise<string | undefined> {
  return (await readdir(buildsDir)).find((name) => name.startsWith('.spare-'));
}

/**
 * The SHA-256 of every file of every build folder in `buildsDir` (the spare too), by the
 * folder's inode (a folder keeps it when pruned or taken as the spare) and the file's path: a build that
 * wrote through a hard link would change another build's file.
 */
async function buildBytes(buildsDir: string): Promise<Map<string, string>> {
  const bytes = new Map<string, string>();
  for (const entry of await readdir(buildsDir, { withFileTypes: true })) {
    // A pruned folder is being deleted meanwhile; the spare is kept.
    if (!entry.isDirectory() || entry.name.startsWith('.pruned-')) continue;
    const folder = (await stat(path.join(buildsDir, entry.name))).ino;
    for (const name of (await filesOf(buildsDir, entry.name)).keys())
      bytes.set(`${folder}/${name}`, await sha256Of(path.join(buildsDir, entry.name, name)));
  }
  return bytes;
}

/** The page folder (or file) a build file belongs to. */
const pageOf = (file: string) =>
  /(^|\/)(index\.html|index|_payload\.json)(\.br|\.gz)?$/.test(file)
    ? path.dirname(file)
    : file.replace(/\.(br|gz)$/, '');

/** Two builds of the demo store's pages per test: seconds each on a quiet machine, minutes on a busy one. */
const TWO_BUILDS_MS = 300_000;

describe('an incremental build equals a full build', { timeout: TWO_BUILDS_MS }, () => {
  let started: TestStorefront;
  let storefront: Storefront;
  let buildsDir: string;
  let live: SnapshotResult;

  beforeAll(async () => {
    // The real pages: the checkout's Astro build when it is up to date, else one of this test's own.
    const distDir = (await astroBuildIsStale('dist')) ? 'dist-incremental-test' : 'dist';
    started = await startTestStorefront({
      name: 'builds-incremental',
      snapshotOnStart: true,
      // Two kept builds: from the second test on, each incremental build recycles the spare (ADR 220).
      env: { DIST_DIR: distDir, BUILDS_KEPT: '2' },
    });
    storefront = started.storefront;
    buildsDir = started.env.BUILDS_DIR!;
    live = await storefront.rebuild(undefined, { full: true });
  }, 1_200_000);
  afterAll(async () => started?.close());

  /**
   * Builds incrementally after `change`, then fully, and checks the two are the same files; answers the
   * pages the incremental build rendered (the others are links of the live build or the spare's files), and
   * whether it recycled the spare.
   */
  async function afterChange(
    change: () => Promise<unknown>,
  ): Promise<{ rendered: string[]; changed: string[]; recycled: boolean; found: SnapshotResult['found'] }> {
    await change();
    const before = await filesOf(buildsDir, live.id);
    const spare = await spareOf(buildsDir);
    const spareFiles = spare ? await filesOf(buildsDir, spare) : new Map<string, string>();
    const spareFolder = spare ? (await stat(path.join(buildsDir, spare))).ino : null;
    const liveFolder = (await stat(path.join(buildsDir, live.id))).ino;
    const bytesBefore = await buildBytes(buildsDir);
    const incremental = await storefront.rebuild();
    // Whether the spare became the build's folder (renamed: the same inode); no file of another build changed.
    const incrementalFolder = (await stat(path.join(buildsDir, incremental.id))).ino;
    const recycled = incrementalFolder === spareFolder;
    for (const [file, sha256] of await buildBytes(buildsDir))
      if (!file.startsWith(`${incrementalFolder}/`) && bytesBefore.has(file))
        expect(sha256, `${file} was written through a hard link`).toBe(bytesBefore.get(file));
    const full = await storefront.rebuild(undefined, { full: true });
    expect(full.reused).toBe(0);
    const [incrementalFiles, fullFiles] = await Promise.all([
      filesOf(buildsDir, incremental.id),
      filesOf(buildsDir, full.id),
    ]);
    const names = [...fullFiles.keys()].filter((name) => !isOwnFile(name)).sort();
    expect([...incrementalFiles.keys()].filter((name) => !isOwnFile(name)).sort()).toEqual(names);
    // No folder of a page gone since the live build is left behind, empty.
    expect(await foldersOf(buildsDir, incremental.id)).toEqual(await foldersOf(buildsDir, full.id));
    for (const name of names) {
      const [a, b] = await Promise.all([
        readFile(path.join(buildsDir, incremental.id, name)),
        readFile(path.join(buildsDir, full.id, name)),
      ]);
      expect(a.equals(b), `${name} differs between the incremental and the full build`).toBe(true);
    }
    // Its manifest gives every file the digest of its bytes, though the build hashed none it linked or wrote.
    const manifest = await readManifest(path.join(buildsDir, incremental.id));
    expect(manifestObjects(manifest!).length).toBe(incrementalFiles.size - 2);
    for (const object of manifestObjects(manifest!))
      expect(await sha256Of(path.join(buildsDir, incremental.id, object.path)), object.path).toBe(object.digest.sha256);
    // A page is linked whole (page, payload, compressed copies) or rendered whole. The site's assets and
    // images are links in every build (ADR 212): only the pages' files, as the build's record lists them, count.
    const record = JSON.parse(await readFile(path.join(buildsDir, `${incremental.id}.pages.json`), 'utf8')) as {
      pages: Record<string, { files: string[] }>;
    };
    const pageFiles = new Set(Object.values(record.pages).flatMap((page) => page.files));
    const pageNames = names.filter((name) => pageFiles.has(name));
    const linked = new Set<string>();
    const rendered = new Set<string>();
    const isLinked = (name: string) =>
      incrementalFiles.get(name) === before.get(name) || incrementalFiles.get(name) === spareFiles.get(name);
    for (const name of pageNames) (isLinked(name) ? linked : rendered).add(pageOf(name));
    expect([...linked].filter((page) => rendered.has(page))).toEqual([]);
    expect(incremental.reused).toBe(linked.size);
    const changed = new Set<string>();
    for (const name of pageNames) {
      // The live build's bytes as they were: it is pruned by now when only two builds are kept.
      const old = bytesBefore.get(`${liveFolder}/${name}`);
      if (old !== (await sha256Of(path.join(buildsDir, full.id, name)))) changed.add(pageOf(name));
    }
    // What changed was rendered, and only that: the sitemap, which reads every product list (prices and stock
    // included), may be rendered to the same bytes.
    const sitemap = (page: string) => page.endsWith('sitemap.xml');
    expect([...rendered].filter((page) => !sitemap(page)).sort()).toEqual(
      [...changed].filter((page) => !sitemap(page)).sort(),
    );
    live = full;
    return { rendered: [...rendered].sort(), changed: [...changed].sort(), recycled, found: incremental.found };
  }

  const acme = () =>
    storefront.db.selectFrom('stores').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow();
  /** A product of acme that a bundle holds and a collection lists, so its name shows in the most places. */
  async function sharedProduct() {
    const store = await acme();
    return storefront.db
      .selectFrom('products as p')
      .innerJoin('product_variants as v', 'v.product_id', 'p.id')
      .innerJoin('bundle_items as bi', 'bi.product_variant_id', 'v.id')
      .innerJoin('collection_items as ci', 'ci.product_id', 'p.id')
      .select(['p.id as productId', 'v.id as variantId'])
      .where('p.store_id', '=', store.id)
      .orderBy('p.id')
      .executeTakeFirstOrThrow();
  }

  test('nothing changed: nothing is rendered', async () => {
    const { rendered, changed, found } = await afterChange(async () => undefined);
    expect(changed).toEqual([]);
    expect(rendered).toEqual([]);
    // Nothing was written: the pages are the live build's, its catalog not listed (ADR 225).
    expect(found).toBe('changes');
  });

  test('a page whose file the live build lost is rendered instead of linked', async () => {
    // Without the spare, which has the same file (the build would keep it, rightly, and render nothing).
    const { rendered } = await afterChange(async () => {
      await rm(path.join(buildsDir, live.id, 'acme/shop/_payload.json.br'));
      const spare = await spareOf(buildsDir);
      if (spare) await rm(path.join(buildsDir, spare), { recursive: true });
    });
    expect(rendered).toEqual(['acme/shop']);
  });

  test("a product's price", async () => {
    const { variantId, productId } = await sharedProduct();
    const { rendered, recycled, found } = await afterChange(() =>
      storefront.db
        .updateTable('product_variants')
        .set({ price_cents: sql`price_cents + 150` })
        .where('id', '=', variantId)
        .execute(),
    );
    expect(found).toBe('changes');
    expect(rendered).toContain(`acme/product/${productId}`);
    // The sitemap reads the lists' ids alone, which a price leaves as they were (ADR 225).
    expect(rendered).not.toContain('acme/sitemap.xml');
    expect(rendered.length).toBe(8);
    // In the folder of the build pruned two builds ago, which has nearly every page as the live build has it.
    expect(recycled).toBe(true);
  });

  test('the price of a product no collection or bundle shows: its page reads nothing else that changed', async () => {
    const store = await acme();
    const alone = await storefront.db
      .selectFrom('products as p')
      .innerJoin('product_variants as v', 'v.product_id', 'p.id')
      .select(['p.id as productId', 'v.id as variantId'])
      .where('p.store_id', '=', store.id)
      .where('p.archived_at', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('collection_items as ci').whereRef('ci.product_id', '=', 'p.id'))))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('bundle_items as bi')
              .innerJoin('product_variants as bv', 'bv.id', 'bi.product_variant_id')
              .whereRef('bv.product_id', '=', 'p.id'),
          ),
        ),
      )
      .orderBy('p.id')
      .executeTakeFirstOrThrow();
    const { rendered, found } = await afterChange(() =>
      storefront.db
        .updateTable('product_variants')
        .set({ price_cents: sql`price_cents + 250` })
        .where('id', '=', alone.variantId)
        .execute(),
    );
    // Named by the change: rendered though its other reads (the store, the lists) would not tell.
    expect(found).toBe('changes');
    expect(rendered).toContain(`acme/product/${alone.productId}`);
  });

  test("a variant's stock to 0", async () => {
    const { variantId, productId } = await sharedProduct();
    const { rendered, found } = await afterChange(() =>
      storefront.db.updateTable('product_variants').set({ stock: 0 }).where('id', '=', variantId).execute(),
    );
    expect(found).toBe('changes');
    expect(rendered).toContain(`acme/product/${productId}`);
  });

  test('a product name that shows in a bundle, a collection, the listings and related items', async () => {
    const { productId } = await sharedProduct();
    const { rendered, changed, found } = await afterChange(() =>
      storefront.db.updateTable('products').set({ name: 'Renamed Thing' }).where('id', '=', productId).execute(),
    );
    expect(found).toBe('listed');
    expect(changed.some((page) => page.startsWith('acme/product-bundle/'))).toBe(true);
    expect(changed.some((page) => page.startsWith('acme/collections/'))).toBe(true);
    expect(rendered).toContain('acme/shop');
  });

  test('a new product, then archived', async () => {
    const store = await acme();
    let id = 0;
    const added = await afterChange(async () => {
      const product = await storefront.db
        .insertInto('products')
        .values({
          store_id: store.id,
          external_id: 'incremental-new',
          name: 'Brand New Thing',
          description_html: '<p>New.</p>',
          featured: false,
          option_names: JSON.stringify([]),
          position: 999,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = product.id;
      await storefront.db
        .insertInto('product_variants')
        .values({
          product_id: id,
          store_id: store.id,
          sku: 'INCR-NEW',
          name: 'One size',
          options: JSON.stringify({}),
          price_cents: 1234,
          stock: 5,
          position: 0,
        })
        .execute();
    });
    expect(added.rendered).toContain(`acme/product/${id}`);
    expect(added.found).toBe('listed');
    const archived = await afterChange(() =>
      storefront.db.updateTable('products').set({ archived_at: new Date() }).where('id', '=', id).execute(),
    );
    expect(archived.rendered).not.toContain(`acme/product/${id}`);
    expect(archived.rendered).toContain('acme/shop');
    expect(archived.found).toBe('listed');
  });

  test('a collection renamed and reordered', async () => {
    const store = await acme();
    const collections = await storefront.db
      .selectFrom('collections')
      .select(['id', 'position'])
      .where('store_id', '=', store.id)
      .orderBy('position')
      .execute();
    expect(collections.length).toBeGreaterThan(1);
    const { rendered, found } = await afterChange(async () => {
      await storefront.db
        .updateTable('collections')
        .set({ title: 'Renamed Collection' })
        .where('id', '=', collections[0]!.id)
        .execute();
      await storefront.db
        .updateTable('collections')
        .set({ position: collections[0]!.position })
        .where('id', '=', collections[1]!.id)
        .execute();
      await storefront.db
        .updateTable('collections')
        .set({ position: collections[1]!.position })
        .where('id', '=', collections[0]!.id)
        .execute();
    });
    expect(rendered.length).toBeGreaterThan(0);
    expect(found).toBe('listed');
  });

  test("a store setting (its title) renders all the store's pages", async () => {
    const { rendered, found } = await afterChange(() =>
      storefront.db.updateTable('stores').set({ title: 'Acme Again' }).where('slug', '=', 'acme').execute(),
    );
    expect(rendered.filter((page) => page.startsWith('acme')).length).toBe(live.pages);
    // No product's rows changed: the store's answer, which every page reads, is asked for again.
    expect(found).toBe('changes');
  });

  test('a price change after the changes since the live build were pruned: the catalog is listed', async () => {
    const { variantId, productId } = await sharedProduct();
    const { rendered, found } = await afterChange(async () => {
      await storefront.db
        .updateTable('product_variants')
        .set({ price_cents: sql`price_cents + 10` })
        .where('id', '=', variantId)
        .execute();
      // As if a build newer than the live one had pruned them (a rollback to an older build).
      await sql`update catalog_changes_pruned set before = pg_current_xact_id()`.execute(storefront.db);
    });
    expect(found).toBe('listed');
    expect(rendered).toContain(`acme/product/${productId}`);
  });
});

/** A page made from the store's API answer, as real pages are: its title. */
async function titlePage(req: IncomingMessage, res: ServerResponse, _next?: unknown, locals?: FrontLocals) {
  const store = (await (await locals!.api!.fetch(new URL('store_front/acme', locals!.api!.baseUrl))).json()) as {
    data: { attributes: { title: string } };
  };
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>${store.data.attributes.title}</title><p>${req.url}</p>`);
}

describe('a build falls back to a full one', () => {
  test(
    'when the pages’ code is not the live build’s',
    async () => {
      // Kept across the three storefronts (each removes its own folder when closed).
      const buildsDir = path.join(await mkdtemp(path.join(tmpdir(), 'builds-fingerprint-')), 'builds');
      const first = await startTestStorefront({
        name: 'builds-fingerprint',
        renderPage: titlePage,
        renderPageVersion: 'one',
        snapshotOnStart: true,
        env: { BUILDS_DIR: buildsDir },
      });
      try {
        const again = await first.storefront.rebuild();
        expect(again.pages).toBeGreaterThan(0);
        expect(again.reused).toBe(again.pages);
      } finally {
        await first.close();
      }
      const sameCode = await startTestStorefront({
        name: 'builds-fingerprint',
        renderPage: titlePage,
        renderPageVersion: 'one',
        snapshotOnStart: false,
        env: { BUILDS_DIR: buildsDir },
      });
      try {
        const kept = await sameCode.storefront.rebuild();
        expect(kept.reused).toBe(kept.pages);
      } finally {
        await sameCode.close();
      }
      const newCode = await startTestStorefront({
        name: 'builds-fingerprint',
        renderPage: titlePage,
        renderPageVersion: 'two',
        snapshotOnStart: false,
        env: { BUILDS_DIR: buildsDir },
      });
      try {
        const rebuilt = await newCode.storefront.rebuild();
        expect(rebuilt.pages).toBeGreaterThan(0);
        expect(rebuilt.reused).toBe(0);
      } finally {
        await newCode.close();
      }
    },
    TWO_BUILDS_MS,
  );
});
