/**
 * One real API per test file: a fresh database (PGlite in memory, or with DATABASE_URL a schema of
 * its own in that PostgreSQL, dropped afterwards), migrated and seeded with the demo data, behind
 * a real HTTP socket on a random port.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { createApp } from '../../../src/server/app.ts';
import { loadConfig, type Config } from '../../../src/server/config.ts';
import { openDatabase } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import type { Database } from '../../../src/server/db/schema.ts';
import { seedDemoDataIfEmpty } from '../../../src/server/db/seed.ts';
import type { Clock } from '../../../src/server/http/context.ts';
import type { RateLimitStore } from '../../../src/server/http/rate-limit.ts';
import type { MailMessage, Mailer } from '../../../src/server/mail/mailer.ts';
import { createTestProcessor, type TestProcessor } from '../../../src/server/payments/test-processor.ts';

export const WEBHOOK_SECRET = 'whsec_test_secret_for_api_tests';

export interface RecordingMailer extends Mailer {
  sent: MailMessage[];
  /** Resolves with the next message sent (or the first one already sent and not yet awaited). */
  next(): Promise<MailMessage>;
}

function recordingMailer(): RecordingMailer {
  const sent: MailMessage[] = [];
  const waiting: ((m: MailMessage) => void)[] = [];
  let handedOut = 0;
  return {
    sent,
    async send(message) {
      sent.push(message);
      waiting.shift()?.(message);
    },
    next() {
      if (handedOut < sent.length) return Promise.resolve(sent[handedOut++]!);
      return new Promise((resolve) => waiting.push((m) => { handedOut++; resolve(m); }));
    },
  };
}

/** A clock tests can move. */
export class TestClock implements Clock {
  offsetMs = 0;
  now() {
    return new Date(Date.now() + this.offsetMs);
  }
}

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (for malformed JSON tests). */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  baseUrl: string;
  db: Kysely<Database>;
  config: Config;
  clock: TestClock;
  mail: RecordingMailer;
  payments: TestProcessor;
  call<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Rate-limit counters (e.g. a Redis store); the database when absent. */
  rateLimits?: RateLimitStore;
  /** Wraps the test processor (fault injection); the wrapper must keep `confirm`. */
  wrapPayments?: (processor: TestProcessor) => TestProcessor;
}

export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const databaseUrl = process.env['DATABASE_URL'];
  let schema: string | undefined;
  if (databaseUrl) {
    schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
  const db = openDatabase({ databaseUrl, searchPath: schema, poolSize: 8 });
  await migrateToLatest(db);
  await seedDemoDataIfEmpty(db);

  const config = loadConfig({ NODE_ENV: 'test', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PUBLIC_SITE_URL: 'http://shop.test', ...env });
  const clock = new TestClock();
  const mail = recordingMailer();
  const processor = createTestProcessor(db, clock);
  const payments = options.wrapPayments ? options.wrapPayments(processor) : processor;
  const app = createApp({ db, payments, mail, config, clock, ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}) });

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/api`;

  return {
    baseUrl,
    db,
    config,
    clock,
    mail,
    payments,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers['recipient-token'] = options.token;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed as any, text, headers: response.headers };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.destroy();
      if (databaseUrl && schema) {
        const admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    },
  };
}

/** A fresh shopper token (what the API would hand out). */
export const newToken = () => randomBytes(24).toString('base64url');

export const ADDRESS = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  address_line1: '12 Analytical Way',
  address_line2: '',
  city: 'Springfield',
  country: 'US',
  state: 'IL',
  zip: '62701',
  phone: '+1 217 555 0100',
};

export const CARDS = {
  success: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' },
  declined: { number: '4000000000000002', exp_month: 12, exp_year: 2040, cvc: '123' },
  insufficient: { number: '4000000000009995', exp_month: 12, exp_year: 2040, cvc: '123' },
};

/** Catalog ids by name, so tests do not hard-code serial ids. */
export async function variantId(db: Kysely<Database>, sku: string, store = 'acme'): Promise<string> {
  const row = await db
    .selectFrom('product_variants as v')
    .innerJoin('stores as s', 's.id', 'v.store_id')
    .select('v.id')
    .where('v.sku', '=', sku)
    .where('s.slug', '=', store)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

export async function productId(db: Kysely<Database>, externalId: string): Promise<string> {
  const row = await db.selectFrom('products').select('id').where('external_id', '=', externalId).executeTakeFirstOrThrow();
  return String(row.id);
}

export async function bundleId(db: Kysely<Database>, externalId: string): Promise<string> {
  const row = await db.selectFrom('bundles').select('id').where('external_id', '=', externalId).executeTakeFirstOrThrow();
  return String(row.id);
}
