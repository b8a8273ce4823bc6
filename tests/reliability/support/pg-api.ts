/**
 * The real API runtime (createApiRuntime: migrations, demo data, pg pool) on a database of its own
 * in the local PostgreSQL, behind @hono/node-server on one of the reliability helper's ports.
 */
import { randomBytes } from 'node:crypto';
import { serve, type ServerType } from '@hono/node-server';
import pg from 'pg';
import { cartTokenSigner } from '../../../src/server/carts/cart-tokens.ts';
import { createApiRuntime, type ApiRuntime } from '../../../src/server/runtime.ts';

export const ADMIN_URL =
  process.env.RELIABILITY_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const WEBHOOK_SECRET = 'whsec_reliability_tests';
export const CART_TOKEN_SECRET = 'cart-token-secret-of-the-reliability-tests';
const tokens = cartTokenSigner(CART_TOKEN_SECRET);
/** A new shopper's cart token, signed as the API under test signs them. */
export const newToken = () => tokens.issue();

export type PgApi = {
  runtime: ApiRuntime;
  baseUrl: string;
  databaseUrl: string;
  close(): Promise<void>;
};

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The API on a database of its own, on a port the OS picks (runs on one machine never collide). */
export async function startPgApi(env: Record<string, string> = {}): Promise<PgApi> {
  const database = `rel_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`create database ${database}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const databaseUrl = url.href;
  const runtime = await createApiRuntime(
    {
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PUBLIC_SITE_URL: 'http://shop.test',
      CART_TOKEN_SECRET,
      ...env,
    },
    { logRequests: false },
  );
  let port = 0;
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: runtime.app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
      port = info.port;
      resolve(s);
    });
  });
  return {
    runtime,
    baseUrl: `http://127.0.0.1:${port}/api`,
    databaseUrl,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
      await admin((c) => c.query(`drop database if exists ${database} with (force)`)).catch(() => {});
    },
  };
}
