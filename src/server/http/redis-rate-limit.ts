import { createClient } from 'redis';
import { RateLimitStoreError, type RateLimitStore } from './rate-limit.ts';

export type RedisLimitStore = {
  close(): Promise<void>;
} & RateLimitStore;

/**
 * Rate-limit counters in Redis (REDIS_URL): one key per limit and window, INCR plus an expiry in
 * one MULTI, so every API instance counts into the same key and old windows vanish by themselves.
 */
export async function createRedisLimitStore(
  url: string,
  options: { prefix?: string; connectTimeoutMs?: number } = {},
): Promise<RedisLimitStore> {
  const prefix = options.prefix ?? 'storefront:rl:';
  let started = false;
  const client = createClient({
    url,
    // Commands fail at once while Redis is away (answered 503) instead of queueing behind a reconnect.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? 5000,
      // At start-up a missing Redis is a configuration error (fail fast); later, reconnect forever.
      reconnectStrategy: (retries, cause) =>
        started ? Math.min(100 * 2 ** retries, 2000) : retries >= 2 ? cause : 200,
    },
  });
  // Without a listener a lost connection would be an unhandled 'error' event and kill the process.
  client.on('error', () => {});
  try {
    await client.connect();
    started = true;
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw new Error(
      `Cannot reach Redis at REDIS_URL (${new URL(url).host}). Start Redis or unset REDIS_URL to keep the counters in the database.`,
      { cause: error },
    );
  }
  return {
    name: 'redis',
    async hit(key, windowStart, windowMs) {
      const name = `${prefix}${key}:${windowStart.getTime()}`;
      try {
        const [count] = await client
          .multi()
          .incr(name)
          .pExpire(name, windowMs * 2)
          .exec();
        return Number(count);
      } catch (error) {
        throw new RateLimitStoreError('Redis rate-limit store unavailable', { cause: error });
      }
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}
