/**
 * Several `npm start` instances on one PostgreSQL (docs/decisions/208-preview-and-live-build.md): the live
 * build is the database's, a switch made on one instance is served by the other within a second
 * (LISTEN/NOTIFY; the builds folder is shared), and a page of one build never gets another build's payload.
 */
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestStorefront, type TestStorefront } from './support/test-storefront.ts';

const TOKEN = 'build-token-of-the-instance-tests-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };
/** How soon the other instance must serve a switch. */
const WITHIN_MS = 1000;

/** A page; the front names the build it serves it from in Server-Timing (docs/decisions/211-incremental-builds.md). */
async function renderPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = new URL(req.url ?? '/', 'http://front').pathname;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>${pathname}</title>`);
}

describe.runIf(process.env.DATABASE_URL)('two storefront instances on one PostgreSQL', () => {
  let first: TestStorefront;
  let second: TestStorefront;

  beforeAll(async () => {
    first = await startTestStorefront({
      name: 'builds-instances',
      renderPage,
      snapshotOnStart: true,
      env: { REBUILD_TOKEN: TOKEN },
    });
    second = await startTestStorefront({ name: 'builds-instances', renderPage, snapshotOnStart: false, beside: first });
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const liveOn = async (instance: TestStorefront) =>
    ((await (await fetch(`${instance.storefront.url}/builds/latest.json?${Date.now()}`)).json()) as { id: string }).id;

  /** The ETag the front gives a build's own payload file (its size and time). */
  async function payloadEtag(id: string): Promise<string> {
    const s = await stat(path.join(first.env.BUILDS_DIR!, id, 'acme', 'shop', '_payload.json'));
    return `"${s.size.toString(36)}-${Math.floor(s.mtimeMs).toString(36)}"`;
  }

  /** A shopper's view on an instance: the page's build, and whether its payload is that build's. */
  async function shopperView(instance: TestStorefront): Promise<{ build: string; payloadOfSameBuild: boolean }> {
    const page = await fetch(`${instance.storefront.url}/acme/shop`);
    const build = /^build;desc="([^"]+)"$/.exec(page.headers.get('server-timing') ?? '')![1]!;
    const payload = await fetch(`${instance.storefront.url}/acme/shop/_payload.json?${build}`);
    return { build, payloadOfSameBuild: payload.headers.get('etag') === (await payloadEtag(build)) };
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

  test('both serve the live build the database names', async () => {
    const live = await liveOn(first);
    expect(await liveOn(second)).toBe(live);
  });

  test('a switch on one instance is served by the other within a second, never a page of one build with another’s payload', async () => {
    const before = await liveOn(first);
    const next = await readyBuild();
    expect(await liveOn(second)).toBe(before);

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
      views.push(await shopperView(second), await shopperView(first));
    }
    expect(performance.now() - switchedAt).toBeLessThan(WITHIN_MS);
    views.push(await shopperView(second), await shopperView(first));
    expect(views.every((view) => view.payloadOfSameBuild)).toBe(true);
    expect(views.at(-1)!.build).toBe(next);

    // A page of the build before, kept open across the switch, still gets its own payload from either instance.
    for (const instance of [first, second]) {
      const old = await fetch(`${instance.storefront.url}/acme/shop/_payload.json?${before}`);
      expect(old.headers.get('etag')).toBe(await payloadEtag(before));
    }

    // Rolling back from the second instance is heard by the first.
    const rollback = await fetch(`${second.storefront.url}/api/admin/builds/${before}/live`, {
      method: 'POST',
      headers: bearer,
    });
    expect(rollback.status).toBe(200);
    const rolledAt = performance.now();
    while ((await liveOn(first)) !== before) expect(performance.now() - rolledAt).toBeLessThan(WITHIN_MS);
  });
});
