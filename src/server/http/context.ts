import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database, StoreRow } from '../db/schema.ts';
import type { MailWakeup } from '../mail/outbox.ts';
import type { CartTokens } from '../carts/cart-tokens.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import type { TestProcessor } from '../payments/test-processor.ts';
import type { ListingIndexes } from '../listings/listing-index.ts';
import type { MediaStorage } from '../media/media-storage.ts';
import type { Publishing } from '../publishing/publishing.ts';
import type { RateLimitStore } from './rate-limit.ts';
import type { StoreCache } from './store-access.ts';

export type Clock = {
  now(): Date;
};

export const systemClock: Clock = { now: () => new Date() };

/** The subset of pino the app uses, so tests can pass a silent one. */
export type Logger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** Everything a route needs from outside; createApp receives it so tests inject their own parts. */
export type AppDeps = {
  db: Kysely<Database>;
  /** null when no provider may run (production without Stripe keys): card checkout answers 503. */
  payments: PaymentProvider | null;
  /** The built-in test processor when it is the provider; its confirm route is mounted only then. */
  testProcessor: TestProcessor | null;
  /** Nudged after a mail was committed to the outbox, so the worker delivers it now. */
  mail: MailWakeup;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** Rate-limit counters: the database, or Redis when REDIS_URL is set. */
  rateLimits: RateLimitStore;
  /** Store rows kept for STORE_CACHE_MS between reads. */
  stores: StoreCache;
  /** Each store's listing index, kept for LISTING_INDEX_MS (docs/decisions/200-listing-index.md). */
  listings: ListingIndexes;
  /** Signs and recognises cart tokens (the secret every instance shares). */
  cartTokens: CartTokens;
  /** The stores' media (MEDIA_DIR or an S3 bucket), where the console's uploads go. */
  media: MediaStorage;
  /**
   * Builds of the storefront's pages, through the publisher the storefront process lends; null when the
   * API runs alone (`npm run start:api`): publishing then answers 503.
   */
  publishing: Publishing | null;
};

export type AppEnv = {
  Variables: {
    store: StoreRow;
    /** The shopper's cart token, checked (or issued) by the cart-token middleware. */
    cartToken: string;
  };
};
