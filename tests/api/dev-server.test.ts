/**
 * `npm run dev` (scripts/dev.ts): Astro's dev server with the API beside it. Without the API a store
 * page cannot load its store and redirects to /404?load-error=1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

/** Whether a process of group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until no process of the group is left. The API's file watcher can outlive SIGTERM and go on
 * writing the data folder, so what still runs after 5 s is killed; the OS says nothing when a group
 * empties, hence the polling.
 */
async function groupGone(pgid: number): Promise<void> {
  for (let waited = 0; groupAlive(pgid); waited += 50) {
    if (waited === 5_000) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // Gone in the meantime.
      }
    }
    await delay(50);
  }
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const VITEST_VARIABLES = new Set(['TEST', 'NODE_ENV', 'BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR']);

let dev: ChildProcess | undefined;
let dataDir: string;
let base: string;

beforeAll(async () => {
  const [port, apiPort] = [await freePort(), await freePort()];
  dataDir = await mkdtemp(path.join(tmpdir(), 'dev-server-'));
  base = `http://localhost:${port}`;
  // A developer's shell: without Vitest's variables (Astro's dev server takes VITEST, MODE, BASE_URL… as its own)
  // and with its own embedded database, so it never seeds or migrates the shared test PostgreSQL.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !VITEST_VARIABLES.has(name) && !name.startsWith('VITEST') && name !== 'DATABASE_URL',
    ),
  );
  Object.assign(env, {
    PORT: String(port),
    DEV_API_PORT: String(apiPort),
    DATA_DIR: dataDir,
    ASTRO_TELEMETRY_DISABLED: '1',
  });
  // Its own process group, so the test stops npm, the dev script and both servers at once.
  dev = spawn('npm', ['run', 'dev'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    // Astro colours its banner when it sees CI=true even on a pipe ("ready in" and the number apart), so the
    // codes go before matching; the output is kept whole for the failure message.
    const seen = () => {
      const text = stripVTControlCharacters(output);
      return text.includes('API ready on') && /ready in \d+/.test(text);
    };
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (!seen()) return;
      clearTimeout(deadline);
      resolve();
    };
    const deadline = setTimeout(
      () => reject(new Error(`npm run dev did not report both servers ready in 100 s:\n${output}`)),
      100_000,
    );
    deadline.unref();
    dev!.stdout!.on('data', read);
    dev!.stderr!.on('data', read);
    dev!.once('exit', (code) =>
      reject(new Error(`npm run dev exited (${code}) before both servers were ready:\n${output}`)),
    );
  });
}, 120_000);

afterAll(async () => {
  if (dev?.pid && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev!.once('exit', resolve));
    process.kill(-dev.pid, 'SIGTERM');
    await exited;
  }
  // The data folder is removed only once nothing writes it any more.
  if (dev?.pid) await groupGone(dev.pid);
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

test('a store page renders its store instead of redirecting to the load-error page', { timeout: 60_000 }, async () => {
  const response = await fetch(`${base}/acme`, { redirect: 'manual' });
  expect(response.headers.get('location')).toBeNull();
  expect(response.status).toBe(200);
  expect(await response.text()).toContain('<title>Acme Supply Co. - Home</title>');
});

test("the browser's /api calls reach the API through the dev server", { timeout: 30_000 }, async () => {
  const response = await fetch(`${base}/api/store_front/acme`);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ data: { attributes: { slug: 'acme' } } });
});
