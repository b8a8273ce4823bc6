/**
 * Publishing against the real snapshot (docs/decisions/202-publishing-builds.md): the whole storefront
 * process (startStorefront) with a stand-in for the Astro build whose renders a test can make fail. A build
 * goes live only when every page rendered; `npm run rebuild` follows it and says how it went.
 */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
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

async function renderPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = new URL(req.url ?? '/', 'http://front').pathname;
  if (failing?.test(pathname)) {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('The page could not be rendered');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>${pathname}</title><p>${pathname}</p>`);
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

/** Starts a build with the token and reads its events to the end. */
async function buildAndFollow(): Promise<{ id: string; events: { event: string; data: any }[] }> {
  const started = await fetch(`${storefront.url}/api/admin/builds`, { method: 'POST', headers: bearer });
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

test('the start-up snapshot is recorded as the command line’s build, live', async () => {
  const id = await liveBuildId();
  const record = await fetch(`${storefront.url}/api/admin/builds/${id}`, { headers: bearer });
  expect(((await record.json()) as { data: unknown }).data).toMatchObject({ id, status: 'live', requested_by: 'cli' });
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
