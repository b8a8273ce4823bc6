import { z } from 'zod';

const optionalUrl = (name: string, example: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || URL.canParse(v), { message: `${name} must be a URL, e.g. ${example}` });

const positiveInt = (fallback: number) =>
  z.coerce.number({ error: 'expected a whole number above 0' }).int().positive().default(fallback);

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined);

const envSchema = z.object({
  HOST: z.string().trim().min(1).default('0.0.0.0').describe('address `npm start` listens on'),
  PORT: z.coerce
    .number({ error: 'PORT must be a port number (0-65535)' })
    .int()
    .min(0)
    .max(65535)
    .default(4321)
    .describe('port of the storefront and the API (`/api/`)'),
  DEV_API_PORT: z.coerce
    .number({ error: 'DEV_API_PORT must be a port number (1-65535)' })
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe('port of the API that `npm run dev` starts beside Astro’s dev server'),
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe('`production` refuses the test payment processor'),
  DATA_DIR: z
    .string()
    .trim()
    .min(1)
    .default('.data/')
    .describe(
      'folder of the embedded database (PGlite); kept across restarts; one process at a time opens it, a second is refused ([decisions/209](docs/decisions/209-one-process-per-pglite-folder.md))',
    ),
  DATABASE_URL: optionalUrl('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/storefront').describe(
    'PostgreSQL connection string; when set, used instead of PGlite',
  ),
  PUBLIC_API_BASE_URL: z
    .string()
    .trim()
    .min(1)
    .default('/api/')
    .describe('where the browser reaches the API (another origin works: CORS exposes `recipient-token`)'),
  API_INTERNAL_URL: optionalUrl('API_INTERNAL_URL', 'http://127.0.0.1:4321/api/').describe(
    'where server-side rendering reaches the API',
  ),
  DIST_DIR: z.string().trim().min(1).default('dist').describe('output of the Astro build'),
  BUILDS_DIR: z
    .string()
    .trim()
    .min(1)
    .default('builds')
    .describe(
      'snapshot builds; instances on one PostgreSQL share this folder, unless `S3_BUILDS_BUCKET` is set (the live one is in the database)',
    ),
  BUILDS_KEPT: z.coerce
    .number({ error: 'expected a whole number of at least 2' })
    .int()
    .min(2, 'expected a whole number of at least 2')
    .default(10)
    .describe(
      'builds kept on disk to preview and roll back to (the live one and the one before it always are); one pruned build more is kept as the spare the next publish recycles ([decisions/220](docs/decisions/220-recycled-build-folders.md))',
    ),
  BUILDS_FETCH_WAIT_MS: z.coerce
    .number({ error: 'BUILDS_FETCH_WAIT_MS must be a whole number of milliseconds' })
    .int()
    .min(0)
    .default(60_000)
    .describe(
      'how long going live waits for instances with their own `BUILDS_DIR` to fetch the build from `S3_BUILDS_BUCKET` (past it, those serve the old build until their fetch ends); see [decisions/212](docs/decisions/212-builds-as-static-artifacts.md)',
    ),
  MEDIA_DIR: z
    .string()
    .trim()
    .min(1)
    .default('media')
    .describe(
      "stores' own media (`{MEDIA_DIR}/{slug}/{name}`, served at `/{slug}/media/{name}` only to shoppers the store admits); the restricted demo store's images ship in `media/vip/`",
    ),
  MEDIA_MAX_UPLOAD_MB: z.coerce
    .number({ error: 'MEDIA_MAX_UPLOAD_MB must be a number of megabytes, e.g. 10' })
    .positive()
    .max(100)
    .default(10)
    .describe('the largest image the console uploads (MB); a larger one is refused with 413'),
  S3_BUCKET: optionalText.describe(
    'an S3-compatible bucket for the console’s uploads instead of `MEDIA_DIR` (which still serves the files the bucket has not got); the front reads objects after the store’s access check, so the bucket stays private (see [decisions/205](docs/decisions/205-s3-media-storage.md))',
  ),
  S3_REGION: z.string().trim().min(1).default('us-east-1').describe('the bucket’s region'),
  S3_ENDPOINT: optionalUrl('S3_ENDPOINT', 'http://127.0.0.1:9000').describe(
    'the S3-compatible service’s URL (MinIO, Cloudflare R2, …); AWS S3 when unset',
  ),
  S3_ACCESS_KEY_ID: optionalText.describe(
    'with `S3_SECRET_ACCESS_KEY`, the bucket’s credentials; unset, the AWS SDK’s own chain (environment, instance role)',
  ),
  S3_SECRET_ACCESS_KEY: optionalText.describe('the secret of `S3_ACCESS_KEY_ID`'),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1')
    .describe('address objects as `{endpoint}/{bucket}/{key}` (most self-hosted services) rather than by subdomain'),
  S3_PREFIX: z
    .string()
    .trim()
    .default('')
    .describe('put before every object key (`media/`), to share a bucket; files are `{S3_PREFIX}{slug}/{name}`'),
  S3_BUILDS_BUCKET: optionalText.describe(
    'a bucket (it may be `S3_BUCKET`) that Publish uploads every build to before it goes live, for a CDN to serve, and that instances with their own `BUILDS_DIR` fetch the live build from; the connection is `S3_REGION`, `S3_ENDPOINT`, the keys and `S3_FORCE_PATH_STYLE` (see [decisions/212](docs/decisions/212-builds-as-static-artifacts.md))',
  ),
  S3_BUILDS_PREFIX: z
    .string()
    .trim()
    .default('builds/')
    .describe('put before every build object key: a build is `{S3_BUILDS_PREFIX}{id}/…`'),
  IMAGE_CACHE_DIR: z
    .string()
    .trim()
    .min(1)
    .default('.cache/images')
    .describe(
      'AVIF/WebP derivatives of local images, made on first request and kept (never served as a folder: a derivative is reached through its original, after its access check)',
    ),
  SNAPSHOT_ON_START: z
    .enum(['0', '1'], { error: 'SNAPSHOT_ON_START must be 1 (write a snapshot on start) or 0 (render on demand)' })
    .default('1')
    .transform((v) => v === '1')
    .describe('`0` skips writing a snapshot when `npm start` starts (pages then render on demand)'),
  REBUILD_TOKEN: optionalText.describe(
    'Bearer token of `POST /api/admin/builds` (publishing; `npm run rebuild` reads it)',
  ),
  PLATFORM_DOMAIN: optionalText.describe("the hosting platform's default domain; its hosts are never store domains"),
  SHOP_DOMAIN: optionalText.describe("the product's own domain, where stores are reached by slug"),
  STRIPE_SECRET_KEY: optionalText.describe('use Stripe instead of the built-in test processor'),
  PUBLIC_STRIPE_PUBLISHABLE_KEY: optionalText.describe('Stripe.js key for the card form (with `STRIPE_SECRET_KEY`)'),
  STRIPE_WEBHOOK_SECRET: optionalText.describe('signing secret of `POST /api/webhooks/stripe`'),
  SMTP_URL: optionalUrl('SMTP_URL', 'smtp://user:pass@mail.example.com:587').describe(
    'where mail goes (`smtp://user:pass@host:587`): order confirmations and sign-in links, queued in the mail outbox with the change they report and delivered by a worker with retries ([decisions/100](docs/decisions/100-mail-outbox.md)). Without it nothing leaves the machine: each mail is printed in the log and stays in the outbox, readable at `GET /api/dev/outbox?to=…` ([docs/api.md](docs/api.md))',
  ),
  PUBLIC_SITE_URL: z
    .string()
    .trim()
    .default('http://localhost:4321')
    .refine((v) => URL.canParse(v), {
      message: 'PUBLIC_SITE_URL must be an absolute URL, e.g. https://shop.example.com',
    })
    .describe(
      'public origin for links in mail, canonical URLs and sitemaps (snapshots are rendered on loopback, so set it in production); `npm start` on another `PORT` defaults to `http://localhost:$PORT`',
    ),
  MAIL_FROM: z
    .string()
    .trim()
    .default('Storefront <no-reply@storefront.local>')
    .describe('sender of those mails; its domain also ends every `Message-ID`'),
  /** Outbox retries (docs/decisions/100-mail-outbox.md): base × 2^(attempt−1), at most the max, until the attempts run out. */
  MAIL_RETRY_BASE_SECONDS: positiveInt(30).describe(
    'wait before retrying a mail the SMTP server did not take, doubled per failed attempt',
  ),
  MAIL_RETRY_MAX_SECONDS: positiveInt(900).describe('the longest wait between two attempts at a mail'),
  MAIL_MAX_ATTEMPTS: positiveInt(100).describe(
    'attempts before a mail is given up (about a day with the defaults; a recipient refused with 5xx is given up at once); given-up mails stay in the outbox with `failed_at` set and are logged as errors',
  ),
  REDIS_URL: optionalUrl('REDIS_URL', 'redis://127.0.0.1:6379').describe(
    'rate-limit counters in Redis instead of the database',
  ),
  CORS_ORIGIN: z
    .string()
    .trim()
    .default('*')
    .describe('origins (comma-separated) allowed to call the API from another origin'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1')
    .describe(
      'behind one proxy: the client address for rate limits is the one the proxy saw (the last `X-Forwarded-For` entry)',
    ),
  STORE_CACHE_MS: z.coerce
    .number({ error: 'STORE_CACHE_MS must be a whole number of milliseconds' })
    .int()
    .min(0)
    .max(60_000)
    .default(1000)
    .describe("how long the API reuses a store row (an operator's change is seen within it; `0`: read on every call)"),
  LISTING_INDEX_MS: z.coerce
    .number({ error: 'LISTING_INDEX_MS must be a whole number of milliseconds' })
    .int()
    .min(0)
    .max(60_000)
    .default(5000)
    .describe(
      "how long the shop's filters and counts reuse a store's listing index before asking whether the catalog changed (a catalog or stock change is seen within it; `0`: read on every call); see [decisions/200](docs/decisions/200-listing-index.md)",
    ),
  API_MICROCACHE_MS: z.coerce
    .number({ error: 'API_MICROCACHE_MS must be a whole number of milliseconds (0 to turn it off)' })
    .int()
    .min(0)
    .max(999_999)
    .default(1000)
    .describe(
      'how long `npm start` answers public catalog API calls from memory (`0`: off); see [decisions/070](docs/decisions/070-short-lived-caches-and-prepared-statements.md)',
    ),
  STATIC_MEMORY_CACHE_MB: z.coerce
    .number({ error: 'STATIC_MEMORY_CACHE_MB must be a whole number of megabytes (0: always read from disk)' })
    .int()
    .min(0)
    .default(128)
    .describe(
      'memory (MB) each served folder (the site’s assets, the live build) may use to keep small files; beyond it files are streamed from disk (`0`: always from disk)',
    ),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(60).describe('fixed window of the rate limits'),
  RATE_LIMIT_GIFT_CARD_PER_CART: positiveInt(10).describe('gift card attempts per cart and window'),
  RATE_LIMIT_GIFT_CARD_PER_CLIENT: positiveInt(30).describe('gift card attempts per client address and window'),
  RATE_LIMIT_VERIFY_PER_EMAIL: positiveInt(5).describe('`allowed_users/verify` calls per email and window'),
  RATE_LIMIT_VERIFY_PER_CLIENT: positiveInt(20).describe('`allowed_users/verify` calls per client address and window'),
  RATE_LIMIT_ADMIN_SIGN_IN_PER_EMAIL: positiveInt(5).describe('console sign-in link requests per email and window'),
  RATE_LIMIT_ADMIN_SIGN_IN_PER_CLIENT: positiveInt(20).describe(
    'console sign-in link requests per client address and window',
  ),
  RATE_LIMIT_INVITATIONS_PER_STORE: positiveInt(100).describe(
    'invitation mails a restricted store’s console sends per hour (adding and re-inviting recipients)',
  ),
  RATE_LIMIT_INVITATIONS_PER_RECIPIENT: positiveInt(3).describe(
    'invitation mails to one recipient per hour (see [decisions/204](docs/decisions/204-recipients-and-domain-tokens.md))',
  ),
  ADMIN_SESSION_IDLE_MINUTES: positiveInt(120).describe(
    'a console session ends after this many minutes without a call (see [decisions/197](docs/decisions/197-operator-auth.md))',
  ),
  RATE_LIMIT_NEW_CARTS_PER_CLIENT: positiveInt(30).describe(
    'new anonymous carts (new cart tokens) per client address and window; a shopper who has a cart is never counted',
  ),
  CART_TOKEN_SECRET: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || v.length >= 32, {
      message: 'CART_TOKEN_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)',
    })
    .describe(
      'key that signs cart tokens (≥ 32 characters, the same on every instance); a token it did not sign is refused (see [decisions/111](docs/decisions/111-signed-cart-tokens-and-client-addresses.md))',
    ),
  RECONCILE_EVERY_SECONDS: z.coerce
    .number({ error: 'RECONCILE_EVERY_SECONDS must be a whole number of seconds' })
    .int()
    .min(0)
    .default(60)
    .describe('how often the API process runs reconciliation (`0`: never, e.g. when cron runs `npm run reconcile`)'),
  RECONCILE_PAID_AFTER_MINUTES: positiveInt(10).describe(
    'a paid cart whose shopper never finalized is ordered (or refunded) after this many minutes',
  ),
  IDLE_CART_DAYS: positiveInt(30).describe('carts untouched this long are deleted by reconciliation'),
  PUBLIC_GEOIP_URL: optionalUrl('PUBLIC_GEOIP_URL', 'https://geoip.example.com/json').describe(
    "country-by-IP lookup for the phone input's default country; read when the server runs (see below)",
  ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino log level'),
});

/**
 * Every environment variable of the product (API, front, and the `PUBLIC_*` browser settings), its
 * default and what it means: the README's "Configuration" table is this schema (a unit test compares them).
 */
export { envSchema };

export type Config = z.output<typeof envSchema>;

/** Parses the environment once at start-up; a bad value stops the process with a message naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
    throw new Error(
      `Invalid environment configuration:\n${lines.join('\n')}\nFix the variables above (see README, "Configuration").`,
    );
  }
  return result.data;
}

/**
 * The site's public origin: PUBLIC_SITE_URL when it is set, else where `npm start` serves on this machine
 * (`port`, else PORT), so links printed or mailed locally open the running storefront.
 */
export function publicSiteUrl(env: Record<string, string | undefined>, config: Config, port?: number): string {
  if (env.PUBLIC_SITE_URL?.trim()) return config.PUBLIC_SITE_URL;
  // Port 0 (a free one, picked when listening) names no address: PORT then.
  return `http://localhost:${port !== undefined && port > 0 ? port : config.PORT}`;
}
