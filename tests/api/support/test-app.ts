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
import { appDeps, createApp } from '../../../src/server/app.ts';
import { contractProblem } from './contract-check.ts';
import { cartTokenSigner } from '../../../src/server/carts/cart-tokens.ts';
import { loadConfig, type Config } from '../../../src/server/config.ts';
import { openDatabase } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import type { Database } from '../../../src/server/db/schema.ts';
import { seedDemoDataIfEmpty } from '../../../src/server/db/seed.ts';
import { silentLogger, type AppDeps, type Clock } from '../../../src/server/http/context.ts';
import type { RateLimitStore } from '../../../src/server/http/rate-limit.ts';
import { createOutboxWorker, type OutboxWorker } from '../../../src/server/mail/outbox-worker.ts';
import { createSmtpTransport, type MailTransport, type OutgoingMail } from '../../../src/server/mail/transport.ts';
import { createTestProcessor, type TestProcessor } from '../../../src/server/payments/test-processor.ts';
import { Publishing, type Publisher } from '../../../src/server/publishing/publishing.ts';

export const WEBHOOK_SECRET = 'whsec_test_secret_for_api_tests';
/** The API tests' cart token key, so `newToken()` hands out tokens the API recognises. */
export const CART_TOKEN_SECRET = 'cart-token-secret-of-the-api-tests-0123456789';

/** The test app's default mail transport: keeps what the outbox worker delivered. */
export type RecordingTransport = {
  sent: OutgoingMail[];
  /** Resolves with the next mail delivered (or the first one already delivered and not yet awaited). */
  next(): Promise<OutgoingMail>;
} & MailTransport;

function recordingTransport(): RecordingTransport {
  const sent: OutgoingMail[] = [];
  const waiting: ((m: OutgoingMail) => void)[] = [];
  let handedOut = 0;
  return {
    sent,
    async deliver(mail) {
      sent.push(mail);
      waiting.shift()?.(mail);
    },
    close() {},
    next() {
      if (handedOut < sent.length) return Promise.resolve(sent[handedOut++]!);
      return new Promise((resolve) =>
        waiting.push((m) => {
          handedOut++;
          resolve(m);
        }),
      );
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

export type ApiAnswer<T = any> = {
  status: number;
  body: T;
  text: string;
  headers: Headers;
};

export type RequestOptions = {
  body?: unknown;
  /** Sent as is (for malformed JSON tests), as application/json unless `headers` give a content-type. */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
};

export type TestApp = {
  baseUrl: string;
  db: Kysely<Database>;
  config: Config;
  clock: TestClock;
  /** Mail delivered by the outbox worker when no other transport was given. */
  mail: RecordingTransport;
  /** The outbox worker: woken by the routes, never polling; tests may run deliverDue() themselves. */
  outbox: OutboxWorker;
  payments: TestProcessor;
  /** The parts the app's routes run with (for background jobs a test runs itself). */
  deps: AppDeps;
  /** The API's own `fetch` (no socket), for a front built around it in a test. */
  fetch(request: Request): Promise<Response>;
  /** An API call; throws when the answer is not one the contract documents (contract-check.ts). */
  call<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
  /**
   * The database as another API instance would open it: a pool of its own on PostgreSQL; on PGlite,
   * which one process opens once, the same instance. Closed with the app.
   */
  instanceDb(): Kysely<Database>;
  close(): Promise<void>;
};

export type TestAppOptions = {
  /** Rate-limit counters (e.g. a Redis store); the database when absent. */
  rateLimits?: RateLimitStore;
  /** Wraps the test processor (fault injection); the wrapper must keep `confirm`. */
  wrapPayments?: (processor: TestProcessor) => TestProcessor;
  /** Where the outbox worker delivers; when absent, SMTP_URL's server if set, else a recording transport. */
  mailTransport?: MailTransport;
  /** Stands in for the storefront's snapshot (the API tests have none); publishing answers 503 without it. */
  publisher?: Publisher;
};

export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const databaseUrl = process.env.DATABASE_URL;
  let schema: string | undefined;
  if (databaseUrl) {
    schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
  // `public` after the file's own schema: extensions live there (migration 0012).
  const db = openDatabase({ databaseUrl, searchPath: schema && `${schema},public`, poolSize: 8 });
  await migrateToLatest(db);
  await seedDemoDataIfEmpty(db);

  const config = loadConfig({
    NODE_ENV: 'test',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PUBLIC_SITE_URL: 'http://shop.test',
    CART_TOKEN_SECRET,
    // Tests change the catalog and read it back at once; the index's reuse has tests of its own.
    LISTING_INDEX_MS: '0',
    ...env,
  });
  const clock = new TestClock();
  const mail = recordingTransport();
  const outbox = createOutboxWorker({
    db,
    transport:
      options.mailTransport ?? (config.SMTP_URL ? createSmtpTransport(config.SMTP_URL, config.MAIL_FROM) : mail),
    clock,
    logger: silentLogger,
    retry: {
      baseSeconds: config.MAIL_RETRY_BASE_SECONDS,
      maxSeconds: config.MAIL_RETRY_MAX_SECONDS,
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
    },
  });
  const processor = createTestProcessor(db, clock);
  const payments = options.wrapPayments ? options.wrapPayments(processor) : processor;
  const parts = {
    db,
    payments,
    mail: outbox,
    config,
    clock,
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    ...(options.publisher
      ? {
          publishing: new Publishing({
            db,
            clock,
            logger: silentLogger,
            publisher: options.publisher,
            kept: config.BUILDS_KEPT,
          }),
        }
      : {}),
  };
  const app = createApp(parts);
  const deps = appDeps(parts);

  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/api`;
  const instances: Kysely<Database>[] = [];

  return {
    baseUrl,
    db,
    config,
    clock,
    mail,
    outbox,
    payments,
    deps,
    fetch: async (request) => app.fetch(request),
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers['recipient-token'] = options.token;
      let body: string | undefined = options.rawBody;
      // A raw body is JSON unless the test labels it otherwise (415 tests).
      if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
        headers['content-type'] = 'application/json';
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
      const problem = contractProblem(method, path, response.status, text);
      if (problem) throw new Error(problem);
      return { status: response.status, body: parsed as any, text, headers: response.headers };
    },
    instanceDb() {
      if (!databaseUrl) return db;
      const other = openDatabase({ databaseUrl, searchPath: schema && `${schema},public`, poolSize: 4 });
      instances.push(other);
      return other;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await parts.publishing?.idle();
      await outbox.stop();
      for (const other of instances) await other.destroy();
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

const testTokens = cartTokenSigner(CART_TOKEN_SECRET);
/** A fresh shopper token, signed as the API signs the ones it hands out. */
export const newToken = () => testTokens.issue();

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
  const row = await db
    .selectFrom('products')
    .select('id')
    .where('external_id', '=', externalId)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

export async function bundleId(db: Kysely<Database>, externalId: string): Promise<string> {
  const row = await db
    .selectFrom('bundles')
    .select('id')
    .where('external_id', '=', externalId)
    .executeTakeFirstOrThrow();
  return String(row.id);
}
