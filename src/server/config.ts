import { z } from 'zod';

const optionalUrl = (name: string, example: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || URL.canParse(v), { message: `${name} must be a URL, e.g. ${example}` });

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATA_DIR: z.string().trim().min(1).default('.data/'),
  DATABASE_URL: optionalUrl('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/storefront'),
  STRIPE_SECRET_KEY: z.string().trim().optional().transform((v) => v || undefined),
  STRIPE_WEBHOOK_SECRET: z.string().trim().optional().transform((v) => v || undefined),
  SMTP_URL: optionalUrl('SMTP_URL', 'smtp://user:pass@mail.example.com:587'),
  MAIL_FROM: z.string().trim().default('Storefront <no-reply@storefront.local>'),
  PUBLIC_SITE_URL: z
    .string()
    .trim()
    .default('http://localhost:4321')
    .refine((v) => URL.canParse(v), { message: 'PUBLIC_SITE_URL must be an absolute URL, e.g. https://shop.example.com' }),
  REDIS_URL: optionalUrl('REDIS_URL', 'redis://127.0.0.1:6379'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CORS_ORIGIN: z.string().trim().default('*'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** How long a store row is reused between reads (0: read it on every call). */
  STORE_CACHE_MS: z.coerce.number({ error: 'STORE_CACHE_MS must be a whole number of milliseconds' }).int().min(0).max(60_000).default(1000),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
  RATE_LIMIT_GIFT_CARD_PER_CART: positiveInt(10),
  RATE_LIMIT_GIFT_CARD_PER_CLIENT: positiveInt(30),
  RATE_LIMIT_VERIFY_PER_EMAIL: positiveInt(5),
  RATE_LIMIT_VERIFY_PER_CLIENT: positiveInt(20),
});

export type Config = z.output<typeof envSchema>;

/** Parses the environment once at start-up; a bad value stops the process with a message naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}\nFix the variables above (see README, "Configuration").`);
  }
  return result.data;
}
