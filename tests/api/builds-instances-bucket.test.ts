/**
 * Several `npm start` instances on one PostgreSQL, each with a BUILDS_DIR of its own and one builds bucket
 * (docs/decisions/212-builds-as-static-artifacts.md): an instance told of a build it has not got fetches it
 * from the bucket, checks it against its manifest and only then serves it — within a second of the switch,
 * and never a page of one build with another's payload.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { manifestObjects, sha256Of, type BuildManifest } from '../../src/front/build-manifest.ts';
import { startFakeS3, type FakeS3 } from './support/fake-s3.ts';
import { startTestStorefront, type TestStorefront } from './support/test-storefront.ts';

const TOKEN = 'build-token-of-the-bucket-instance-tests-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };
/** How soon the other instance must serve a switch. */
const WITHIN_MS = 1000;

/** A page; the front names its build in the answer's `Server-Timing` (docs/decisions/211-incremental-builds.md). */
async function renderPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = new URL(req.url ?? '/', 'http://front').pathname;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>${pathname}</title>`);
}

describe.runIf(process.env.DATABASE_URL)('two storefront instances with their own BUILDS_DIR and one bucket', () => {
  let s3: FakeS3;
  let secondBuilds: string;
  let first: TestStorefront;
  let second: TestStorefront;

  beforeAll(async () => {
    s3 = await startFakeS3('instances-key');
    const bucket = {
      S3_BUILDS_BUCKET: 'site',
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'instances-key',
      S3_SECRET_ACCESS_KEY: 'instances-secret',
      S3_FORCE_PATH_STYLE: 'true',
    };
    first = await startTestStorefront({
      name: 'builds-bucket',
      renderPage,
      snapshotOnStart: true,
      env: { REBUILD_TOKEN: TOKEN, ...bucket },
    });
    secondBuilds = await mkdtemp(path.join(tmpdir(), 'builds-bucket-second-'));
    second = await startTestStorefront({
      name: 'builds-bucket',
      renderPage,
      snapshotOnStart: false,
      beside: first,
      env: { BUILDS_DIR: secondBuilds },
    });
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await s3?.close();
    if (secondBuilds) await rm(secondBuilds, { recursive: true, force: true });
  });

  const liveOn = async (instance: TestStorefront) =>
    ((await (await fetch(`${instance.storefront.url}/builds/latest.json?${Date.now()}`)).json()) as { id: string }).id;

  /** The ETag an instance gives a build's payload file: its own copy's size and time. */
  async function payloadEtag(instance: TestStorefront, id: string): Promise<string> {
    const s = await stat(path.join(instance.env.BUILDS_DIR!, id, 'acme', 'shop', '_payload.json'));
    return `"${s.size.toString(36)}-${Math.floor(s.mtimeMs).toString(36)}"`;
  }

  /** A shopper's view on an instance: the page's build, and whether its payload is that build's. */
  async function shopperView(instance: TestStorefront): Promise<{ build: string; payloadOfSameBuild: boolean }> {
    const page = await fetch(`${instance.storefront.url}/acme/shop`);
    const build = /^build;desc="([^"]+)"$/.exec(page.headers.get('server-timing') ?? '')![1]!;
    const payload = await fetch(`${instance.storefront.url}/acme/shop/_payload.json?${build}`);
    return { build, payloadOfSameBuild: payload.headers.get('etag') === (await payloadEtag(instance, build)) };
  }

  async function readyBuild(): Promise<string> {
    const started = await fetch(`${first.storefront.url}/api/admin/builds`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ go_live: false }),
    });
    expect(started.status).toBe(202);
    const { id } = ((await started.json()) as { data: { id: string } }).data;
    const events = await fetch(`${first.storefront.url}/api/admin/builds/${id}/events`, { headers: bearer });
    expect(await events.text()).toMatch(/^event: done$/m);
    return id;
  }

  test('the second instance fetched the live build into its own folder, every file as the manifest says', async () => {
    const live = await liveOn(first);
    expect(await liveOn(second)).toBe(live);
    expect(secondBuilds).not.toBe(first.env.BUILDS_DIR);
    const root = path.join(secondBuilds, live);
    const manifest = JSON.parse(await readFile(path.join(root, '_manifest.json'), 'utf8')) as BuildManifest;
    for (const object of manifestObjects(manifest))
      expect(await sha256Of(path.join(root, object.path)), object.path).toBe(object.digest.sha256);
  });

  test('a switch on one instance is served by the other within a second, fetched whole, never a page of one build with another’s payload', async () => {
    const before = await liveOn(first);
    const next = await readyBuild();
    expect(await liveOn(second)).toBe(before);
    expect(await stat(path.join(secondBuilds, next)).catch(() => null)).toBeNull();

    const switched = await fetch(`${first.storefront.url}/api/admin/builds/${next}/live`, {
      method: 'POST',
      headers: bearer,
    });
    expect(switched.status).toBe(200);
    const switchedAt = performance.now();
    expect(await liveOn(first)).toBe(next);
    const views = [];
    while ((await liveOn(second)) !== next) {
      expect(performance.now() - switchedAt).toBeLessThan(WITHIN_MS);
      views.push(await shopperView(second));
    }
    expect(performance.now() - switchedAt).toBeLessThan(WITHIN_MS);
    views.push(await shopperView(second));
    expect(views.every((view) => view.payloadOfSameBuild)).toBe(true);
    expect(views.at(-1)!.build).toBe(next);
    expect((await stat(path.join(secondBuilds, next, '_manifest.json'))).isFile()).toBe(true);

    // Rolling back from the second instance is heard by the first, which has that build already.
    const rollback = await fetch(`${second.storefront.url}/api/admin/builds/${before}/live`, {
      method: 'POST',
      headers: bearer,
    });
    expect(rollback.status).toBe(200);
    const rolledAt = performance.now();
    while ((await liveOn(first)) !== before) expect(performance.now() - rolledAt).toBeLessThan(WITHIN_MS);
  });
});
