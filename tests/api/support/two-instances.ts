/**
 * Two `npm start` instances on one PostgreSQL database (docs/decisions/208-preview-and-live-build.md), and
 * what the tests of a switch between them do: make a build ready on one, switch it live, and watch the
 * other serve it. The second instance shares the first's folders unless its own environment says otherwise.
 */
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { expect } from 'vitest';
import { startTestStorefront, type TestStorefront } from './test-storefront.ts';

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

export type TwoInstances = { first: TestStorefront; second: TestStorefront; close(): Promise<void> };

/** Starts the first instance (which snapshots the demo store live) and a second one beside it. */
export async function startTwoInstances(options: {
  name: string;
  env?: Record<string, string>;
  secondEnv?: Record<string, string>;
}): Promise<TwoInstances> {
  const first = await startTestStorefront({
    name: options.name,
    renderPage,
    snapshotOnStart: true,
    env: { REBUILD_TOKEN: TOKEN, ...options.env },
  });
  const second = await startTestStorefront({
    name: options.name,
    renderPage,
    snapshotOnStart: false,
    beside: first,
    ...(options.secondEnv ? { env: options.secondEnv } : {}),
  });
  return {
    first,
    second,
    async close() {
      await second.close();
      await first.close();
    },
  };
}

/** The id of the build an instance serves live. */
export const liveOn = async (instance: TestStorefront) =>
  ((await (await fetch(`${instance.storefront.url}/builds/latest.json?${Date.now()}`)).json()) as { id: string }).id;

/** The ETag an instance gives a build's payload file: its own copy's size and time. */
export async function payloadEtag(instance: TestStorefront, id: string): Promise<string> {
  const s = await stat(path.join(instance.env.BUILDS_DIR!, id, 'acme', 'shop', '_payload.json'));
  return `"${s.size.toString(36)}-${Math.floor(s.mtimeMs).toString(36)}"`;
}

type ShopperView = { build: string; payloadOfSameBuild: boolean };

/** A shopper's view on an instance: the page's build, and whether its payload is that build's. */
async function shopperView(instance: TestStorefront): Promise<ShopperView> {
  const page = await fetch(`${instance.storefront.url}/acme/shop`);
  const build = /^build;desc="([^"]+)"$/.exec(page.headers.get('server-timing') ?? '')![1]!;
  const payload = await fetch(`${instance.storefront.url}/acme/shop/_payload.json?${build}`);
  return { build, payloadOfSameBuild: payload.headers.get('etag') === (await payloadEtag(instance, build)) };
}

/** Starts a build on an instance, to go live once ready or not; answers its id. */
export async function startBuild(instance: TestStorefront, goLive: boolean): Promise<string> {
  const started = await fetch(`${instance.storefront.url}/api/admin/builds`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ go_live: goLive }),
  });
  expect(started.status).toBe(202);
  return ((await started.json()) as { data: { id: string } }).data.id;
}

/** Follows a build's events on an instance to their end. */
export async function buildDone(instance: TestStorefront, id: string): Promise<void> {
  const events = await fetch(`${instance.storefront.url}/api/admin/builds/${id}/events`, { headers: bearer });
  expect(await events.text()).toMatch(/^event: done$/m);
}

/** Renders a build on an instance without switching it live; resolves once it is ready. */
export async function readyBuild(instance: TestStorefront): Promise<string> {
  const id = await startBuild(instance, false);
  await buildDone(instance, id);
  return id;
}

/** Switches a ready build live through an instance; resolves with when it answered. */
export async function switchLive(instance: TestStorefront, id: string): Promise<number> {
  const switched = await fetch(`${instance.storefront.url}/api/admin/builds/${id}/live`, {
    method: 'POST',
    headers: bearer,
  });
  expect(switched.status).toBe(200);
  return performance.now();
}

/**
 * Polls `watched` until it serves build `id`, failing once WITHIN_MS have passed since `switchedAt`; on
 * every poll, and once more after, takes the shopper's view on each of `viewed`, in that order.
 */
export async function viewsUntilLive(
  watched: TestStorefront,
  id: string,
  switchedAt: number,
  viewed: TestStorefront[] = [],
): Promise<ShopperView[]> {
  const views: ShopperView[] = [];
  const look = async () => {
    for (const instance of viewed) views.push(await shopperView(instance));
  };
  while ((await liveOn(watched)) !== id) {
    expect(performance.now() - switchedAt).toBeLessThan(WITHIN_MS);
    await look();
  }
  expect(performance.now() - switchedAt).toBeLessThan(WITHIN_MS);
  await look();
  return views;
}
