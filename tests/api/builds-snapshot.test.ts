/**
 * Publishing against the real snapshot (docs/decisions/202-publishing-builds.md): the whole storefront
 * process (startStorefront) with a stand-in for the Astro build whose renders a test can make fail. A build
 * goes live only when every page rendered; `npm run rebuild` follows it and says how it went.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { serverEvents } from '../../src/lib/build-progress.ts';
import { startStorefront, type Storefront } from '../../src/front/start-storefront.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const TOKEN = 'build-token-of-the-snapshot-tests-0123456789';
let storefront: Storefront;
let folder: string;
let database: string | undefined;
let env: NodeJS.ProcessEnv;
/** Pages whose render answers 500 (the fault a test injects). */
let failing: RegExp | null = null;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The stand-in for Astro: a small page per path, or a server error where the test says so. */
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
  folder = await mkdtemp(path.join(tmpdir(), 'builds-snapshot-'));
  let databaseUrl: string | undefined;
  if (DATABASE_URL) {
    database = `t_builds_${randomBytes(5).toString('hex')}`;
    await admin(`create database ${database}`);
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    databaseUrl = url.href;
  }
  env = {
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    DIST_DIR: path.join(folder, 'dist'),
    BUILDS_DIR: path.join(folder, 'builds'),
    IMAGE_CACHE_DIR: path.join(folder, 'image-cache'),
    REBUILD_TOKEN: TOKEN,
    LOG_LEVEL: 'silent',
    RECONCILE_EVERY_SECONDS: '0',
  };
  storefront = await startStorefront({
    env,
    port: 0,
    host: '127.0.0.1',
    snapshotOnStart: true,
    astroHandler: renderPage,
    log: () => {},
  });
}, 120_000);

afterAll(async () => {
  await storefront?.close();
  if (database) await admin(`drop database if exists ${database} with (force)`);
  await rm(folder, { recursive: true, force: true });
});

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
