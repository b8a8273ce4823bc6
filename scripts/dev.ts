/**
 * `npm run dev`: Astro's dev server with the commerce API beside it, both reloading on change
 * (docs/decisions/141-dead-code-copies-and-dev-server.md). The API is `npm run start:api` under
 * `node --watch`; Astro's dev server sends `/api/*` to it (a Vite proxy, see astro.config.mjs) and
 * renders pages against it through API_INTERNAL_URL, so browser and server reach the same API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadConfig, type Config } from '../src/server/config.ts';

// The configuration schema checks PORT, DEV_API_PORT and HOST like every other variable; a developer's
// server listens on localhost unless HOST says otherwise.
let config: Config;
try {
  config = loadConfig({ HOST: 'localhost', ...process.env });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const { PORT: port, HOST: host } = config;
const apiPort = config.DEV_API_PORT ?? port + 1;

const apiUrl = `http://127.0.0.1:${apiPort}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  API_INTERNAL_URL: process.env.API_INTERNAL_URL ?? `${apiUrl}/api/`,
  DEV_API_PROXY: apiUrl,
  PUBLIC_SITE_URL: process.env.PUBLIC_SITE_URL ?? `http://localhost:${port}`,
};
const astroBin = path.join(path.dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'bin/astro.mjs');

// process.execPath is the project's Node 24 (npm scripts put node_modules/.bin first); Astro refuses older ones.
const children: ChildProcess[] = [
  spawn(process.execPath, ['--watch', '--watch-preserve-output', 'scripts/start-api.ts'], {
    env: { ...env, HOST: '127.0.0.1', PORT: String(apiPort) },
    stdio: 'inherit',
  }),
  spawn(process.execPath, [astroBin, 'dev', '--port', String(port), '--host', host], { env, stdio: 'inherit' }),
];

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  const force = setTimeout(() => process.exit(code), 10_000);
  force.unref();
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  void Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve)))).then(() =>
    process.exit(code),
  );
}
// Either server ending on its own ends the pair: a dev server without its API is the bug this script fixes.
for (const child of children) child.once('exit', (exitCode) => stop(exitCode ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
