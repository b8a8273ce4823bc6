/**
 * Publishing against the real snapshot (docs/decisions/202-publishing-builds.md, 208-preview-and-live-build.md):
 * the whole storefront process (startStorefront) with a stand-in for the Astro build whose renders a test
 * can make fail or change. A build goes live only when every page rendered; `npm run rebuild` follows it
 * and says how it went; a ready build is previewed by a signed-in operator only, then goes live.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serverEvents } from '../../src/lib/build-progress.ts';
import type { Storefront } from '../../src/front/start-storefront.ts';
import { startTestStorefront, type TestStorefront } from './support/test-storefront.ts';

const TOKEN = 'build-token-of-the-snapshot-tests-0123456789';
let started: TestStorefront;
let storefront: Storefront;
let env: NodeJS.ProcessEnv;
let failing: RegExp | null = null;
/** Written into the shop page: a new edition is a changed page. */
let edition = 'first';

async function renderPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = new URL(req.url ?? '/', 'http://front').pathname;
  if (failing?.test(pathname)) {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('The page could not be rendered');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const extra = pathname === '/acme/shop' ? `<p>${edition} edition</p>` : '';
  res.end(`<!doctype html><title>${pathname}</title><p>${pathname}</p>${extra}`);
}

beforeAll(async () => {
  started = await startTestStorefront({
    name: 'builds-snapshot',
    renderPage,
    snapshotOnStart: true,
    env: { REBUILD_TOKEN: TOKEN },
  });
  ({ storefront, env } = started);
}, 120_000);

afterAll(async () => started?.close());

const bearer = { authorization: `Bearer ${TOKEN}` };
const liveBuildId = async () =>
  ((await (await fetch(`${storefront.url}/builds/latest.json?${Date.now()}`)).json()) as { id: string }).id;

/** Starts a build with the token (live when rendered, unless `goLive` is false) and reads its events to the end. */
async function buildAndFollow(goLive = true): Promise<{ id: string; events: { event: string; data: any }[] }> {
  const started = await fetch(`${storefront.url}/api/admin/builds`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ go_live: goLive }),
  });
  expect(started.status).toBe(202);
  const { id } = ((await started.json()) as { data: { id: string } }).data;
  const stream = await fetch(`${storefront.url}/api/admin/builds/${id}/events`, { headers: bearer });
  const events = [];
  for await (const event of serverEvents(stream.body!))
    events.push({ event: event.event, data: JSON.parse(event.data) });
  return { id, events };
}

/** `npm run rebuild` against this storefront: its output and exit code. */
function runRebuildScript(): Promise<{ code: number; output: string }> {
  const port = new URL(storefront.url).port;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/rebuild.ts'],
      { env: { ...process.env, ...env, PORT: port }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

test('the start-up snapshot is recorded as the command line’s build, live, every page of it added', async () => {
  const id = await liveBuildId();
  const record = await fetch(`${storefront.url}/api/admin/builds/${id}`, { headers: bearer });
  const data = ((await record.json()) as { data: { pages: number } }).data;
  expect(data).toMatchObject({ id, status: 'live', requested_by: 'cli' });
  // Nothing was live before it: counted from its record, the sitemap not counted.
  expect(data).toMatchObject({ changes: { added: data.pages - 1, changed: 0, removed: 0 } });
});

test('a build whose every page renders goes live; its events count the pages', async () => {
  const { id, events } = await buildAndFollow();
  const last = events.at(-1)!;
  expect(last).toMatchObject({ event: 'done', data: { id, status: 'live' } });
  const total = last.data.pages as number;
  expect(total).toBeGreaterThan(10);
  expect(events.filter((e) => e.event === 'progress').at(-1)!.data).toMatchObject({ done: total, total });
  expect(await liveBuildId()).toBe(id);
});

test('a build with a page that fails to render is recorded as failed and never switched to', async () => {
  const before = await liveBuildId();
  failing = /^\/acme\/shop$/;
  try {
    const { id, events } = await buildAndFollow();
    expect(events.at(-1)).toMatchObject({
      event: 'failed',
      data: {
        id,
        status: 'failed',
        pages: null,
        error: expect.stringMatching(/^Snapshot of \/acme\/shop failed with 500/),
      },
    });
    expect(events.at(-1)!.data.error).not.toMatch(/\n|\bat \w+ \(/);
    expect(await liveBuildId()).toBe(before);
    // Nothing of it is left beside the live build.
    expect(await readdir(env.BUILDS_DIR!)).not.toContain(id);
  } finally {
    failing = null;
  }
});

test('npm run rebuild prints the progress and the new live build, and exits 1 when the build failed', async () => {
  const ok = await runRebuildScript();
  expect(ok.output).toMatch(/^Built \d+\/\d+ pages, \d+ s elapsed/m);
  expect(ok.output).toMatch(/^Live build [\w-]+: \d+ pages in [\d.]+ s$/m);
  expect(ok.code).toBe(0);

  const before = await liveBuildId();
  failing = /^\/acme\/shop$/;
  try {
    const failed = await runRebuildScript();
    expect(failed.output).toMatch(/failed: Snapshot of \/acme\/shop failed with 500.*The live build did not change\./);
    expect(failed.code).toBe(1);
  } finally {
    failing = null;
  }
  expect(await liveBuildId()).toBe(before);
});

/** The demo owner of acme signed in through the storefront: the session cookie. */
async function signInDemoOwner(): Promise<string> {
  const token = new URL((await storefront.demoSignInLink())!).searchParams.get('token');
  const answer = await fetch(`${storefront.url}/api/admin/sign_in/confirm`, {
    method: 'POST',
    headers: { origin: storefront.url, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(answer.status).toBe(200);
  return (answer.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** The ETag the front gives a file of a build's folder (its size and time). */
async function etagOf(id: string, file: string): Promise<string> {
  const s = await stat(path.join(env.BUILDS_DIR!, id, file));
  return `"${s.size.toString(36)}-${Math.floor(s.mtimeMs).toString(36)}"`;
}

test('a build to preview is ready, counts its changed pages, and only a signed-in operator sees it before it goes live', async () => {
  const live = await liveBuildId();
  edition = 'second';
  const { id, events } = await buildAndFollow(false);
  expect(events.at(-1)).toMatchObject({
    event: 'done',
    data: { id, status: 'ready', kept: true, changes: { added: 0, changed: 1, removed: 0 } },
  });
  // Shoppers still get the live build.
  expect(await liveBuildId()).toBe(live);
  expect(await (await fetch(`${storefront.url}/acme/shop`)).text()).toContain('first edition');

  const openPreview = (cookie: string) =>
    fetch(`${storefront.url}/admin/acme/preview/${id}`, { headers: { cookie }, redirect: 'manual' });
  expect((await openPreview('')).status).toBe(404);
  const session = await signInDemoOwner();
  const opened = await openPreview(session);
  expect(opened.status).toBe(303);
  expect(opened.headers.get('location')).toBe('/acme');
  const previewCookie = opened.headers.get('set-cookie')!.split(';')[0]!;
  expect(previewCookie).toBe(`build_preview=acme.${id}`);
  expect(opened.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);

  const previewed = await fetch(`${storefront.url}/acme/shop`, { headers: { cookie: `${session}; ${previewCookie}` } });
  expect(await previewed.text()).toContain('second edition');
  expect(previewed.headers.get('cache-control')).toBe('private, no-store');
  expect(previewed.headers.get('x-robots-tag')).toBe('noindex');
  const latest = await fetch(`${storefront.url}/builds/latest.json?${Date.now()}`, {
    headers: { cookie: `${session}; ${previewCookie}` },
  });
  expect(((await latest.json()) as { id: string }).id).toBe(id);
  // The preview cookie alone (signed out, or copied elsewhere) shows the live build and is removed.
  const alone = await fetch(`${storefront.url}/acme/shop`, { headers: { cookie: previewCookie } });
  expect(await alone.text()).toContain('first edition');
  expect(alone.headers.get('set-cookie')).toMatch(/^build_preview=; .*Max-Age=0/);
  // A build that never went live is not answered by its id to shoppers.
  const payload = await fetch(`${storefront.url}/acme/shop/_payload.json?${id}`);
  expect(payload.headers.get('etag')).toBe(await etagOf(live, 'acme/shop/_payload.json'));

  const switched = await fetch(`${storefront.url}/api/admin/builds/${id}/live`, { method: 'POST', headers: bearer });
  expect(switched.status).toBe(200);
  expect(await liveBuildId()).toBe(id);
  expect(await (await fetch(`${storefront.url}/acme/shop`)).text()).toContain('second edition');
  // A page of the build switched away from still gets its own build's payload, the new one the new.
  const old = await fetch(`${storefront.url}/acme/shop/_payload.json?${live}`);
  expect(old.headers.get('etag')).toBe(await etagOf(live, 'acme/shop/_payload.json'));
  const fresh = await fetch(`${storefront.url}/acme/shop/_payload.json?${id}`);
  expect(fresh.headers.get('etag')).toBe(await etagOf(id, 'acme/shop/_payload.json'));
  expect(fresh.headers.get('etag')).not.toBe(old.headers.get('etag'));

  // Rolled back in one action: shoppers get the first edition again.
  const rollback = await fetch(`${storefront.url}/api/admin/builds/${live}/live`, { method: 'POST', headers: bearer });
  expect(rollback.status).toBe(200);
  expect(await liveBuildId()).toBe(live);
  expect(await (await fetch(`${storefront.url}/acme/shop`)).text()).toContain('first edition');
  const record = await fetch(`${storefront.url}/api/admin/builds/${id}`, { headers: bearer });
  expect(((await record.json()) as { data: { status: string } }).data.status).toBe('rolled_back');
  edition = 'first';
});

test('a previewed page carries the preview banner, its file stays byte-identical for shoppers, and the banner’s Go live and Leave preview work', async () => {
  const live = await liveBuildId();
  edition = 'banner';
  const { id } = await buildAndFollow(false);
  const session = await signInDemoOwner();
  const opened = await fetch(`${storefront.url}/admin/acme/preview/${id}`, {
    headers: { cookie: session },
    redirect: 'manual',
  });
  const cookie = `${session}; ${opened.headers.get('set-cookie')!.split(';')[0]!}`;

  const page = await (await fetch(`${storefront.url}/acme/shop`, { headers: { cookie } })).text();
  const banner = /<section class="build-preview" aria-label="Build preview"[\s\S]*?<\/section>/.exec(page)?.[0];
  expect(banner).toContain(`Preview of build ${id}</strong>, built <time datetime="`);
  expect(banner).toContain('href="/admin/acme/publish">Back to Publish</a>');
  expect(banner).toContain(`href="/admin/acme/preview?page=%2Facme%2Fshop">Leave preview</a>`);
  // The banner is added on the way out: the build's file is what shoppers will get, byte for byte.
  const file = await readFile(path.join(env.BUILDS_DIR!, id, 'acme', 'shop', 'index.html'), 'utf8');
  expect(page.replace(banner!, '')).toBe(file);
  expect(file).not.toContain('build-preview');
  // Other files of the preview (payloads) are sent as they are.
  const payload = await fetch(`${storefront.url}/acme/shop/_payload.json?${id}`, { headers: { cookie } });
  expect(await payload.text()).not.toContain('build-preview');
  expect(await (await fetch(`${storefront.url}/acme/shop`)).text()).not.toContain('build-preview');

  // Go live posts the session's CSRF token and comes back to the page, now live.
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(banner!)![1]!;
  const goLive = (token: string) =>
    fetch(`${storefront.url}/admin/acme/preview/${id}/live`, {
      method: 'POST',
      headers: { cookie, origin: storefront.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: token, page: '/acme/shop' }),
      redirect: 'manual',
    });
  const forged = await goLive('forged');
  expect(forged.status).toBe(403);
  expect(await forged.text()).toContain('This request is missing the console’s security token.');
  expect(await liveBuildId()).toBe(live);
  const done = await goLive(csrf);
  expect(done.status).toBe(303);
  expect(done.headers.get('location')).toBe('/acme/shop');
  expect(await liveBuildId()).toBe(id);
  const nowLive = await (await fetch(`${storefront.url}/acme/shop`, { headers: { cookie } })).text();
  expect(nowLive).toContain('This build is live: shoppers see it too.');
  expect(nowLive).not.toContain('>Go live</button>');

  // Leave preview ends the cookie and returns to the live page it was on.
  const left = await fetch(`${storefront.url}/admin/acme/preview?page=%2Facme%2Fshop`, {
    headers: { cookie },
    redirect: 'manual',
  });
  expect(left.status).toBe(303);
  expect(left.headers.get('location')).toBe('/acme/shop');
  expect(left.headers.get('set-cookie')).toMatch(/^build_preview=; .*Max-Age=0/);
  // Only pages of the store: anywhere else is the store's front page.
  const elsewhere = await fetch(`${storefront.url}/admin/acme/preview?page=%2F%2Fevil.example`, { redirect: 'manual' });
  expect(elsewhere.headers.get('location')).toBe('/acme');

  await fetch(`${storefront.url}/api/admin/builds/${live}/live`, { method: 'POST', headers: bearer });
  edition = 'first';
});
