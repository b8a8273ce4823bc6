import type { IncomingMessage } from 'node:http';
import { sql, type Kysely } from 'kysely';
import proxyAddr from 'proxy-addr';
import type { Context } from 'hono';
import type { Database } from '../db/schema.ts';
import { HttpError } from './errors.ts';

export type Limit = {
  key: string;
  max: number;
};

/** Where the fixed-window counters live: shared by every API instance (database or Redis). */
export type RateLimitStore = {
  readonly name: 'database' | 'redis';
  /** Counts one hit on `key` in the window starting at `windowStart`; answers the count so far. */
  hit(key: string, windowStart: Date, windowMs: number): Promise<number>;
};

/** The store is unreachable: answered 503 (the limit cannot be checked, so the call is not run). */
export class RateLimitStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RateLimitStoreError';
  }
}

/**
 * Counters in the database: one upsert per key; a new window resets the count, the same window
 * increments it. Rows of ended windows are removed by reconciliation (docs/decisions/110).
 */
export function databaseLimitStore(db: Kysely<Database>): RateLimitStore {
  return {
    name: 'database',
    async hit(key, windowStart) {
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
export async function enforceLimits(
  store: RateLimitStore,
  limits: readonly Limit[],
  windowSeconds: number,
  now: Date,
): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  for (const limit of limits) {
    const count = await store.hit(limit.key, windowStart, windowMs);
    if (count > limit.max) {
      const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
      throw new HttpError(
        429,
        { message: 'Too many attempts. Please wait a moment and try again.' },
        { 'Retry-After': String(retryAfter) },
      );
    }
  }
}

/**
 * What the Node adapter passes as the app's env (@hono/node-server's HttpBindings), and what the
 * front passes for its in-process calls: the shopper's own request, whose socket says who is calling.
 */
export type ClientBindings = {
  incoming?: IncomingMessage;
};

// With TRUST_PROXY exactly one proxy stands in front: the address it saw is the last X-Forwarded-For
// entry; entries before it are whatever the client wrote, so trusting them would let one client
// count as many (docs/decisions/111).
const trustOneProxy = (_address: string, hop: number) => hop < 1;

/**
 * The client address for per-client limits: the request socket's peer, or with TRUST_PROXY the
 * address the proxy in front saw. 'unknown' only when the app is called without Node bindings.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  const incoming = (c.env as ClientBindings | undefined)?.incoming;
  if (!incoming?.socket) return 'unknown';
  const address = trustProxy ? proxyAddr(incoming, trustOneProxy) : incoming.socket.remoteAddress;
  return (address ?? 'unknown').slice(0, 64);
}
