/**
 * A whole storefront (front and API in one process, as `npm start` runs them) for API tests, with a
 * stand-in for Astro's pages or the real ones: its own folder, and on PostgreSQL (DATABASE_URL) its own
 * database, so no test reads what another left in the shared one.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { AstroHandler } from '../../../src/front/front-server.ts';
import { startStorefront, type Storefront } from '../../../src/front/start-storefront.ts';

export type TestStorefront = {
  storefront: Storefront;
  /** The environment it was started with (folders, database, settings). */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
};

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function startTestStorefront(options: {
  /** Names its folder and database. */
  name: string;
  /** A stand-in for Astro's pages; without it, the real pages of `env.DIST_DIR`'s Astro build. */
  renderPage?: AstroHandler;
  /** What identifies `renderPage`'s code in build records: another one means a full build. */
  renderPageVersion?: string;
  snapshotOnStart: boolean;
  env?: Record<string, string>;
  /** Another instance on the same database and BUILDS_DIR (as `npm start` scaled out); it owns both. */
  beside?: TestStorefront;
}): Promise<TestStorefront> {
  const start = (env: NodeJS.ProcessEnv) =>
    startStorefront({
      env,
      port: 0,
      host: '127.0.0.1',
      snapshotOnStart: options.snapshotOnStart,
      ...(options.renderPage ? { astroHandler: options.renderPage } : {}),
      ...(options.renderPageVersion ? { astroHandlerVersion: options.renderPageVersion } : {}),
      log: () => {},
    });
  if (options.beside) {
    const env = { ...options.beside.env, ...options.env };
    const storefront = await start(env);
    return { storefront, env, close: () => storefront.close() };
  }
  const folder = await mkdtemp(path.join(tmpdir(), `${options.name}-`));
  let database: string | undefined;
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    database = `t_${options.name.replace(/\W/g, '_')}_${randomBytes(5).toString('hex')}`;
    await admin(`create database ${database}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${database}`;
    databaseUrl = url.href;
  }
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    DIST_DIR: path.join(folder, 'dist'),
    BUILDS_DIR: path.join(folder, 'builds'),
    IMAGE_CACHE_DIR: path.join(folder, 'image-cache'),
    LOG_LEVEL: 'silent',
    RECONCILE_EVERY_SECONDS: '0',
    ...options.env,
  };
  const storefront = await start(env);
  return {
    storefront,
    env,
    async close() {
      await storefront.close();
      if (database) await admin(`drop database if exists ${database} with (force)`);
      await rm(folder, { recursive: true, force: true });
    },
  };
}
