import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { createApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Database } from './db/schema.ts';
import { seedDemoDataIfEmpty } from './db/seed.ts';
import { settleOwedReleases } from './checkout/release.ts';
import { createRedisLimitStore, type RedisLimitStore } from './http/redis-rate-limit.ts';
import { systemClock, type AppEnv } from './http/context.ts';
import { StoreCache } from './http/store-access.ts';
import { createDevMailer, createSmtpMailer } from './mail/mailer.ts';
import type { PaymentProvider } from './payments/provider.ts';
import { createStripeProvider } from './payments/stripe.ts';
import { createTestProcessor } from './payments/test-processor.ts';

export interface ApiRuntime {
  app: Hono<AppEnv>;
  db: Kysely<Database>;
  config: Config;
  logger: pino.Logger;
  /** Store rows the API reuses for STORE_CACHE_MS; a rebuild clears them to render what is stored now. */
  stores: StoreCache;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Log one line per API request (default true). */
  logRequests?: boolean;
}

/**
 * Opens the database (PGlite in DATA_DIR, or PostgreSQL when DATABASE_URL is set), migrates it,
 * loads the demo data into an empty database and builds the API. `app.fetch` answers `/api/...`.
 */
export async function createApiRuntime(env: Record<string, string | undefined> = process.env, options: RuntimeOptions = {}): Promise<ApiRuntime> {
  const config = loadConfig(env);
  // Log lines leave in batches of up to 4 KB, at least once a second, instead of one write per request:
  // those writes were a measurable share of the API's CPU under load. pino flushes the rest on exit.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const flushLogs = setInterval(() => destination.flush(), 1000);
  flushLogs.unref();
  const logger = pino({ level: config.LOG_LEVEL, base: { service: 'api' } }, destination);
  const db = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
    const seeded = await seedDemoDataIfEmpty(db);
    if (seeded.length) logger.info({ stores: seeded }, 'demo data loaded');
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }

  let payments: PaymentProvider | null;
  if (config.STRIPE_SECRET_KEY) payments = createStripeProvider(config.STRIPE_SECRET_KEY);
  else if (config.NODE_ENV === 'production') {
    payments = null;
    logger.warn('NODE_ENV=production without STRIPE_SECRET_KEY: card checkout is off (the test processor never runs in production)');
  } else payments = createTestProcessor(db, systemClock);

  const mail = config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM) : createDevMailer(db, logger);
  let redis: RedisLimitStore | undefined;
  try {
    redis = config.REDIS_URL ? await createRedisLimitStore(config.REDIS_URL) : undefined;
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
  if (redis) logger.info('rate-limit counters in Redis');
  const stores = new StoreCache(config.STORE_CACHE_MS, systemClock);
  const app = createApp({ db, payments, mail, config, clock: systemClock, logger, stores, logRequests: options.logRequests ?? true, ...(redis ? { rateLimits: redis } : {}) });

  // Payments owed back to shoppers (the provider failed when the release was decided) are retried
  // here too, so none waits for the shopper's next call or a webhook.
  const sweep = setInterval(() => {
    settleOwedReleases({ db, payments, clock: systemClock, logger }).catch((error: unknown) => logger.warn({ err: error }, 'release sweep failed'));
  }, 60_000);
  sweep.unref();

  let closed: Promise<void> | undefined;
  return {
    app,
    db,
    config,
    logger,
    stores,
    close: () =>
      (closed ??= (async () => {
        clearInterval(sweep);
        await redis?.close().catch(() => {});
        await db.destroy();
        clearInterval(flushLogs);
        destination.flush();
      })()),
  };
}
