import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { appDeps, createApp, type AppParts } from './app.ts';
import { cartTokenSigner } from './carts/cart-tokens.ts';
import { loadConfig, type Config } from './config.ts';
import { sharedSecret } from './db/app-secrets.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { Database } from './db/schema.ts';
import { seedDemoDataIfEmpty } from './db/seed.ts';
import { createRedisLimitStore, type RedisLimitStore } from './http/redis-rate-limit.ts';
import { systemClock, type AppEnv } from './http/context.ts';
import { StoreCache } from './http/store-access.ts';
import { ListingIndexes } from './listings/listing-index.ts';
import type { OutboxWorker } from './mail/outbox-worker.ts';
import { startMailOutbox } from './mail/start-outbox.ts';
import { startReconciliation, type ReconcileSummary } from './reconciliation/reconcile.ts';
import type { PaymentProvider } from './payments/provider.ts';
import { createStripeProvider } from './payments/stripe.ts';
import { createTestProcessor } from './payments/test-processor.ts';
import { failAbandonedBuilds, Publishing, type Publisher } from './publishing/publishing.ts';
import { startAutoPublish } from './publishing/auto-publish.ts';

export type ApiRuntime = {
  app: Hono<AppEnv>;
  db: Kysely<Database>;
  config: Config;
  logger: pino.Logger;
  /** Store rows the API reuses for STORE_CACHE_MS; a rebuild clears them to render what is stored now. */
  stores: StoreCache;
  /** Listing indexes the API reuses for LISTING_INDEX_MS; a rebuild clears them too. */
  listings: ListingIndexes;
  /** The mail outbox worker (polling until close). */
  mail: OutboxWorker;
  /** Builds of the storefront's pages; null without a publisher. */
  publishing: Publishing | null;
  /** Runs the reconciliation job once now (it also runs every RECONCILE_EVERY_SECONDS). */
  reconcile(): Promise<ReconcileSummary>;
  close(): Promise<void>;
};

export type RuntimeOptions = {
  /** Log one line per API request (default true). */
  logRequests?: boolean;
  /** The storefront's snapshot (src/front/start-storefront.ts); without it publishing answers 503. */
  publisher?: Publisher;
};

/**
 * Opens the database (PGlite in DATA_DIR, or PostgreSQL when DATABASE_URL is set), migrates it,
 * loads the demo data into an empty database and builds the API. `app.fetch` answers `/api/...`.
 */
export async function createApiRuntime(
  env: Record<string, string | undefined> = process.env,
  options: RuntimeOptions = {},
): Promise<ApiRuntime> {
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
    logger.warn(
      'NODE_ENV=production without STRIPE_SECRET_KEY: card checkout is off (the test processor never runs in production)',
    );
  } else payments = createTestProcessor(db, systemClock);

  let redis: RedisLimitStore | undefined;
  let cartTokenSecret: string;
  try {
    // Every instance signs cart tokens with the same key: configured, or generated once into the database.
    cartTokenSecret = config.CART_TOKEN_SECRET ?? (await sharedSecret(db, 'cart_token'));
    redis = config.REDIS_URL ? await createRedisLimitStore(config.REDIS_URL) : undefined;
  } catch (error) {
    await db.destroy().catch(() => {});
    throw error;
  }
  if (redis) logger.info('rate-limit counters in Redis');
  const mail = startMailOutbox({ db, config, clock: systemClock, logger });
  const stores = new StoreCache(config.STORE_CACHE_MS, systemClock);
  const listings = new ListingIndexes(config.LISTING_INDEX_MS, systemClock);
  const cartTokens = cartTokenSigner(cartTokenSecret);
  let publishing: Publishing | null = null;
  if (options.publisher) {
    publishing = new Publishing({
      db,
      clock: systemClock,
      logger,
      publisher: options.publisher,
      kept: config.BUILDS_KEPT,
    });
    // Only a process that builds does this: a build left half done by a stopped process never finishes.
    // A build another instance renders right now still heartbeats and is left alone (ADR 208).
    const abandoned = await failAbandonedBuilds(db, systemClock.now());
    if (abandoned) logger.warn({ builds: abandoned }, 'builds left unfinished by a stopped process marked failed');
  }
  const parts: AppParts = {
    db,
    payments,
    mail,
    config,
    clock: systemClock,
    logger,
    stores,
    listings,
    cartTokens,
    logRequests: options.logRequests ?? true,
    ...(publishing ? { publishing } : {}),
    ...(redis ? { rateLimits: redis } : {}),
  };
  const app = createApp(parts);
  // Stores that publish by themselves after a quiet period: every instance looks, one claims (ADR 208).
  const autoPublish = publishing ? startAutoPublish(db, publishing, systemClock, logger) : null;
  // Paid carts without orders, owed refunds, idle carts, expired rate-limit rows (docs/decisions/110).
  const reconciliation = startReconciliation(appDeps(parts), config.RECONCILE_EVERY_SECONDS);

  let closed: Promise<void> | undefined;
  return {
    app,
    db,
    config,
    logger,
    stores,
    listings,
    mail,
    publishing,
    reconcile: reconciliation.runOnce,
    close: () =>
      (closed ??= (async () => {
        // No build may start once closing began, and the running one ends before the database closes.
        await autoPublish?.stop();
        await publishing?.idle();
        await reconciliation.stop();
        await mail.stop();
        await redis?.close().catch(() => {});
        await db.destroy();
        clearInterval(flushLogs);
        destination.flush();
      })()),
  };
}
