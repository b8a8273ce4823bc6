import { sql, type Kysely } from 'kysely';
import type { Context } from 'hono';
import type { Database } from '../db/schema.ts';
import { HttpError } from './errors.ts';

export interface Limit {
  key: string;
  max: number;
}

/** Where the fixed-window counters live: shared by every API instance (database or Redis). */
export interface RateLimitStore {
  readonly name: 'database' | 'redis';
  /** Counts one hit on `key` in the window starting at `windowStart`; answers the count so far. */
  hit(key: string, windowStart: Date, windowMs: number): Promise<number>;
}

/** The store is unreachable: answered 503 (the limit cannot be checked, so the call is not run). */
export class RateLimitStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RateLimitStoreError';
  }
}

/**
 * Counters in the database: one upsert per key; a new window resets the count, the same window
 * increments it.
 */
export function databaseLimitStore(db: Kysely<Database>): RateLimitStore {
  return {
    name: 'database',
    async hit(key, windowStart, windowMs) {
      // Expired windows are swept now and then, so the table stays the size of the current window.
      if (Math.random() < 0.01) await db.deleteFrom('rate_limits').where('window_start', '<', new Date(windowStart.getTime() - windowMs)).execute();
      const row = await db
        .insertInto('rate_limits')
        .values({ key, window_start: windowStart, count: 1 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql<number>`case when rate_limits.window_start = excluded.window_start then rate_limits.count + 1 else 1 end`,
            window_start: sql<Date>`excluded.window_start`,
          }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return row.count;
    },
  };
}

/** Checks every limit (counting a hit on each); over any of them → 429 with Retry-After. */
export async function enforceLimits(store: RateLimitStore, limits: readonly Limit[], windowSeconds: number, now: Date): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  for (const limit of limits) {
    const count = await store.hit(limit.key, windowStart, windowMs);
    if (count > limit.max) {
      const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
      throw new HttpError(429, { message: 'Too many attempts. Please wait a moment and try again.' }, { 'Retry-After': String(retryAfter) });
    }
  }
}

/** The client address: the socket's, or the first X-Forwarded-For hop when TRUST_PROXY is on. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
