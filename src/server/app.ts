import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { Kysely } from 'kysely';
import { SHOPPER_TOKEN, SHOPPER_TOKENS } from '../lib/contract/shopper-tokens.ts';
import { MESSAGES } from '../lib/contract/messages.ts';
import { bundleItemRoutes, bundleRoutes } from './bundles/routes.ts';
import { cartRoutes } from './carts/routes.ts';
import { cartTokenCheck } from './carts/cart-token-check.ts';
import { cartTokenSigner, type CartTokens } from './carts/cart-tokens.ts';
import { checkoutRoutes } from './checkout/routes.ts';
import { collectionRoutes } from './collections/routes.ts';
import { consoleRoutes } from './console/routes.ts';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import { giftCardRoutes } from './gift-cards/routes.ts';
import { silentLogger, systemClock, type AppDeps, type AppEnv, type Clock, type Logger } from './http/context.ts';
import { apiReferencePage } from './http/api-reference.ts';
import { handleError } from './http/errors.ts';
import { openApiDocument } from './http/openapi.ts';
import { databaseLimitStore, type RateLimitStore } from './http/rate-limit.ts';
import { limitBody } from './http/body-limit.ts';
import { refuseNulInUrl } from './http/storable-text.ts';
import { catalogCache } from './http/catalog-cache.ts';
import { StoreCache, storeContext } from './http/store-access.ts';
import { devMailRoutes } from './mail/dev-routes.ts';
import { noWakeup, type MailWakeup } from './mail/outbox.ts';
import { ListingIndexes } from './listings/listing-index.ts';
import { orderRoutes } from './orders/routes.ts';
import type { PaymentProvider } from './payments/provider.ts';
import type { TestProcessor } from './payments/test-processor.ts';
import { productCollectionRoutes, productRoutes, productVariantRoutes } from './products/routes.ts';
import { storeRoutes } from './stores/routes.ts';
import { testProcessorRoutes } from './test-processor/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { apiSecureHeaders } from './http/secure-headers.ts';
import { listingRoutes } from './listings/routes.ts';
import { openMediaStorage } from './media/open-media.ts';
import { IMAGE_UPLOAD_PATH } from './console/image-routes.ts';
import { SETTINGS_PATHS } from './console/settings-routes.ts';
import { RECIPIENT_IMPORT_PATH } from './console/recipient-routes.ts';
import type { Publishing } from './publishing/publishing.ts';
import { searchRoutes } from './search/routes.ts';

export type AppParts = {
  db: Kysely<Database>;
  payments: PaymentProvider | null;
  /** The outbox worker (or anything woken after a mail is committed); nothing when absent. */
  mail?: MailWakeup;
  config: Config;
  clock?: Clock;
  logger?: Logger;
  /** Rate-limit counters; the database when absent. */
  rateLimits?: RateLimitStore;
  /** Log one line per request (method, path, status, ms). */
  logRequests?: boolean;
  /** Store rows shared with whoever must clear them (a rebuild); one of STORE_CACHE_MS when absent. */
  stores?: StoreCache;
  /** Listing indexes shared with whoever must clear them (a rebuild); of LISTING_INDEX_MS when absent. */
  listings?: ListingIndexes;
  /**
   * Cart token signatures. When absent: CART_TOKEN_SECRET, else a random secret of this app alone —
   * fine for one process; createApiRuntime passes the secret every instance shares.
   */
  cartTokens?: CartTokens;
  /**
   * Builds of the storefront's pages around the publisher the storefront process lends
   * (docs/decisions/202-publishing-builds.md); absent, publishing answers 503.
   */
  publishing?: Publishing;
};

const isTestProcessor = (p: PaymentProvider | null): p is TestProcessor => p?.name === 'test' && 'confirm' in p;

/** What every route and background job receives, from the parts given (defaults filled in). */
export function appDeps(parts: AppParts): AppDeps {
  return {
    db: parts.db,
    payments: parts.payments,
    testProcessor: isTestProcessor(parts.payments) ? parts.payments : null,
    mail: parts.mail ?? noWakeup,
    clock: parts.clock ?? systemClock,
    config: parts.config,
    logger: parts.logger ?? silentLogger,
    rateLimits: parts.rateLimits ?? databaseLimitStore(parts.db),
    stores: parts.stores ?? new StoreCache(parts.config.STORE_CACHE_MS, parts.clock ?? systemClock),
    listings: parts.listings ?? new ListingIndexes(parts.config.LISTING_INDEX_MS, parts.clock ?? systemClock),
    cartTokens: parts.cartTokens ?? cartTokenSigner(parts.config.CART_TOKEN_SECRET ?? randomBytes(32)),
    media: openMediaStorage(parts.config),
    publishing: parts.publishing ?? null,
  };
}

/** Builds the commerce API: every path under /api. Tests call it with their own parts. */
export function createApp(parts: AppParts): Hono<AppEnv> {
  const deps = appDeps(parts);
  const { logger, config } = deps;
  const app = new Hono<AppEnv>().basePath('/api');

  if (parts.logRequests) {
    app.use('*', async (c, next) => {
      const started = performance.now();
      await next();
      logger.info(
        { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
        'request',
      );
    });
  }
  app.use(
    '*',
    cors({
      origin: config.CORS_ORIGIN === '*' ? '*' : config.CORS_ORIGIN.split(',').map((o) => o.trim()),
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['content-type', ...SHOPPER_TOKENS],
      // Cross-origin storefronts must read the new cart token (spec §7).
      exposeHeaders: [SHOPPER_TOKEN.recipientToken],
      maxAge: 600,
    }),
  );
  // An image upload, a store's settings (four policy texts alone may be 200,000 characters) and a
  // recipients' CSV have their own, larger limits (image-routes.ts, settings-routes.ts, recipient-routes.ts).
  app.use('*', limitBody(64 * 1024, { except: [IMAGE_UPLOAD_PATH, SETTINGS_PATHS, RECIPIENT_IMPORT_PATH] }));
  app.use('*', refuseNulInUrl);
  app.use('*', apiSecureHeaders);
  app.use('*', async (c, next) => {
    await next();
    // Carts and orders are per shopper; catalog answers may be cached briefly by browsers only.
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

  app.get('/health', (c) => c.json({ ok: true }));

  const withStore = storeContext(deps.db, deps.clock, deps.stores);
  app.use('/store_front/:slug', withStore);
  app.use('/store_front/:slug/*', withStore);
  // Every call that reads or writes a cart (after the store's access check); `cart/*` matches `cart` too.
  const withCartToken = cartTokenCheck(deps);
  app.use('/store_front/:slug/cart/*', withCartToken);
  app.use('/store_front/:slug/gift_cards/*', withCartToken);
  // Catalog reads only (store info, products, variants, bundles, bundle items, collections): carts and orders stay no-store.
  app.get('/store_front/:slug', catalogCache);
  app.get('/store_front/:slug/policies/*', catalogCache);
  app.get('/store_front/:slug/products', catalogCache);
  app.get('/store_front/:slug/listings', catalogCache);
  app.get('/store_front/:slug/collections', catalogCache);
  app.get('/store_front/:slug/collections/*', catalogCache);
  app.get('/store_front/:slug/search', catalogCache);
  app.get('/store_front/:slug/products/*', catalogCache);
  app.get('/store_front/:slug/product_variants', catalogCache);
  app.get('/store_front/:slug/product_collections', catalogCache);
  app.get('/store_front/:slug/bundles', catalogCache);
  app.get('/store_front/:slug/bundles/*', catalogCache);
  app.get('/store_front/:slug/bundle_items', catalogCache);

  app.route('/store_front', storeRoutes(deps));
  app.route('/store_front/:slug/products', productRoutes(deps));
  app.route('/store_front/:slug/product_variants', productVariantRoutes(deps));
  app.route('/store_front/:slug/product_collections', productCollectionRoutes(deps));
  app.route('/store_front/:slug/bundles', bundleRoutes(deps));
  app.route('/store_front/:slug/bundle_items', bundleItemRoutes(deps));
  app.route('/store_front/:slug/listings', listingRoutes(deps));
  app.route('/store_front/:slug/collections', collectionRoutes(deps));
  app.route('/store_front/:slug/search', searchRoutes(deps));
  app.route('/store_front/:slug/cart', cartRoutes(deps));
  app.route('/store_front/:slug/cart', checkoutRoutes(deps));
  app.route('/store_front/:slug/gift_cards', giftCardRoutes(deps));
  app.route('/cart', orderRoutes(deps));
  app.route('/admin', consoleRoutes(deps));
  app.route('/webhooks', webhookRoutes(deps));
  // The test card processor never runs in production, whatever the provider wiring says.
  const development = {
    testProcessor: Boolean(deps.testProcessor) && config.NODE_ENV !== 'production',
    // Mail that never leaves the machine is read here; real mail (SMTP_URL) and production never expose it.
    outbox: !config.SMTP_URL && config.NODE_ENV !== 'production',
  };
  if (development.testProcessor && deps.testProcessor)
    app.route('/test_processor', testProcessorRoutes(deps.testProcessor));
  if (development.outbox) app.route('/dev', devMailRoutes(deps.db));

  // The contract of what is mounted here, and a page to read it (ADR 171).
  // Built on first request: most API processes (and every test app) never serve them.
  let document: ReturnType<typeof openApiDocument> | undefined;
  let reference: string | undefined;
  app.get('/openapi.json', (c) => c.json((document ??= openApiDocument({ development }))));
  app.get('/docs', (c) => c.html((reference ??= apiReferencePage((document ??= openApiDocument({ development }))))));

  app.notFound((c) => c.json({ message: MESSAGES.recordNotFound }, 404));
  app.onError((error, c) => handleError(error, c, logger));
  // basePath('/api') returns the same instance with its path prefix in the type.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
  return app;
}
