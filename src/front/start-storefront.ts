import { randomBytes } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { listPublicStoreSlugs } from '../server/catalog/public-stores.ts';
import { createApiRuntime } from '../server/runtime.ts';
import { domainConfigFromEnv } from '../lib/custom-domain.ts';
import { astroEntry, ensureAstroBuild } from './astro-build.ts';
import { BuildPointer } from './build-pointer.ts';
import { createFrontListener, type AstroHandler } from './front-server.ts';
import { snapshotPages } from './snapshot-pages.ts';
import { writeSnapshot, type SnapshotResult } from './snapshot.ts';
import { StaticFolder } from './static-files.ts';
import { readRebuildToken } from './rebuild-token.ts';
import { routeOwnApiCallsInProcess } from './in-process-api.ts';
import { ApiMicrocache, microcacheTtlFromEnv } from './api-microcache.ts';
import { SnapshotApiMemo } from './snapshot-api-memo.ts';

export interface StorefrontOptions {
  env?: NodeJS.ProcessEnv;
  /** Port to listen on; 0 picks a free one (builds). */
  port: number;
  host: string;
  /** Write a snapshot of every public store's pages before `ready` resolves. */
  snapshotOnStart: boolean;
  /** Called as snapshot pages are written. */
  onProgress?: (done: number, total: number) => void;
  log?: (line: string) => void;
}

export interface Storefront {
  url: string;
  server: Server;
  /** Renders a new snapshot beside the live one and switches to it. */
  rebuild(onProgress?: (done: number, total: number) => void): Promise<SnapshotResult>;
  close(): Promise<void>;
}

/**
 * Starts the whole product in this process: the API on its database, the Astro handler and the
 * front that routes between them and serves the snapshot build (design.md, "One process, one port").
 */
export async function startStorefront(options: StorefrontOptions): Promise<Storefront> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  // Snapshots render on a loopback port but are served from the site: canonical, Open Graph and sitemap
  // URLs (and mailed links) need the public origin, which is where `npm start` serves unless told otherwise.
  env.PUBLIC_SITE_URL ??= `http://localhost:${options.port || Number(env.PORT ?? 4321)}`;
  process.env.PUBLIC_SITE_URL ??= env.PUBLIC_SITE_URL;
  const distDir = path.resolve(env.DIST_DIR ?? 'dist');
  const buildsDir = path.resolve(env.BUILDS_DIR ?? 'builds');

  await ensureAstroBuild(distDir, log);
  const runtime = await createApiRuntime(env);
  const builds = new BuildPointer(buildsDir);
  const prerenderSecret = randomBytes(24).toString('base64url');
  const rebuildToken = await readRebuildToken(env, buildsDir);

  const memo = new SnapshotApiMemo();
  const microcache = new ApiMicrocache({ ttlMs: microcacheTtlFromEnv(env) });
  let handler: AstroHandler | null = null;
  let running: Promise<SnapshotResult> | null = null;
  let url = '';

  async function rebuild(onProgress?: (done: number, total: number) => void): Promise<SnapshotResult> {
    if (running) return running;
    running = (async () => {
      memo.begin();
      // The catalog may have changed (that is why we rebuild): the snapshot and shoppers' calls see it now.
      microcache.clear();
      runtime.stores.clear();
      const pages = await snapshotPages(url, await listPublicStoreSlugs(runtime.db));
      const result = await writeSnapshot({ baseUrl: url, prerenderSecret, buildsDir, pages, onProgress });
      await builds.switchTo(result.id);
      return result;
    })().finally(() => {
      memo.end();
      running = null;
    });
    return running;
  }

  const listener = createFrontListener({
    apiFetch: (request) => runtime.app.fetch(request),
    astroHandler: (req, res) => {
      if (!handler) throw new Error('The Astro handler is not loaded yet');
      return handler(req, res);
    },
    assets: new StaticFolder(path.join(distDir, 'client')),
    builds,
    domains: domainConfigFromEnv(env),
    prerenderSecret,
    microcache,
    rebuild: {
      token: rebuildToken,
      run: async (res: ServerResponse) => {
        if (running) {
          res.writeHead(409, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'A rebuild is already running.' }));
          return;
        }
        res.writeHead(202, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
        try {
          const result = await rebuild((done, total) => {
            if (done === total || done % 50 === 0) res.write(`Built ${done}/${total} pages\n`);
          });
          res.end(`Live build ${result.id}: ${result.pages} pages in ${result.durationMs} ms\n`);
        } catch (error) {
          res.end(`Rebuild failed: ${(error as Error).message}\n`);
        }
      },
    },
  });

  const server = createServer((req, res) => {
    listener(req, res).catch((error: unknown) => {
      console.error(new Error(`Unhandled error for ${req.method} ${req.url}`, { cause: error }));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error');
    });
  });
  // Keep-alive beyond common load balancers' 60 s idle timeout, so they never reuse a closed socket.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  url = `http://${options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host}:${address.port}`;

  // Astro's server code reads the API's internal address when it renders; it must point at this process.
  env.API_INTERNAL_URL ??= `http://127.0.0.1:${address.port}/api/`;
  process.env.API_INTERNAL_URL ??= env.API_INTERNAL_URL;
  // Calls to this process's own API skip the loopback socket (an external API_INTERNAL_URL is left alone).
  const restoreFetch = routeOwnApiCallsInProcess(
    [`http://127.0.0.1:${address.port}/api/`, `http://localhost:${address.port}/api/`],
    memo.wrap((request) => runtime.app.fetch(request)),
  );
  const entry = await importAstroEntry(astroEntry(distDir));
  handler = entry.handler;

  if (options.snapshotOnStart) {
    const result = await rebuild(options.onProgress);
    log(`Snapshot ${result.id}: ${result.pages} pages in ${result.durationMs} ms`);
  }

  return {
    url,
    server,
    rebuild,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await running?.catch(() => undefined);
      restoreFetch();
      await runtime.close();
    },
  };
}

/**
 * Imports the built Astro server. Its bundle leaves React external, and React picks its development
 * build — about 3× slower to render, measured in docs/performance.md — unless NODE_ENV is
 * `production` when it is first loaded. The pages served here are a production build, so React is
 * loaded as production; the API keeps reading NODE_ENV from its own config (test processor etc.).
 */
async function importAstroEntry(file: string): Promise<{ handler: AstroHandler }> {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    // Every React entry the server bundle and @astrojs/react load; each picks its build when first loaded.
    await Promise.all([import('react'), import('react/jsx-runtime'), import('react-dom'), import('react-dom/server')]);
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
  return (await import(pathToFileURL(file).href)) as { handler: AstroHandler };
}
