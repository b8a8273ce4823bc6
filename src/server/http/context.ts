import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database, StoreRow } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import type { TestProcessor } from '../payments/test-processor.ts';
import type { RateLimitStore } from './rate-limit.ts';
import type { StoreCache } from './store-access.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The subset of pino the app uses, so tests can pass a silent one. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Everything a route needs from outside; createApp receives it so tests inject their own parts. */
export interface AppDeps {
  db: Kysely<Database>;
  /** null when no provider may run (production without Stripe keys): card checkout answers 503. */
  payments: PaymentProvider | null;
  /** The built-in test processor when it is the provider; its confirm route is mounted only then. */
  testProcessor: TestProcessor | null;
  mail: Mailer;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** Rate-limit counters: the database, or Redis when REDIS_URL is set. */
  rateLimits: RateLimitStore;
  /** Store rows kept for STORE_CACHE_MS between reads. */
  stores: StoreCache;
}

export interface AppEnv {
  Variables: {
    store: StoreRow;
  };
}
