/**
 * Rate-limit counters in Redis (REDIS_URL): same interface as the database counters, shared by every
 * API instance. Runs against the local Redis (redis://127.0.0.1:6379), each test under its own prefix.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, describe, expect, test } from 'vitest';
import { createRedisLimitStore, type RedisLimitStore } from '../../src/server/http/redis-rate-limit.ts';
import { report, split } from './support/figures.ts';
import { newToken, startTestApp, type TestApp } from './support/test-app.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = () => `test:rl:${randomBytes(6).toString('hex')}:`;
const S = '/store_front/acme';

const stores: RedisLimitStore[] = [];
const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await Promise.all(stores.map((s) => s.close()));
});

async function store(p: string) {
  const s = await createRedisLimitStore(REDIS_URL, { prefix: p });
  stores.push(s);
  return s;
}

describe('Redis rate-limit store', () => {
  test('counts hits per key and window, and lets old windows expire', async () => {
    const p = prefix();
    const s = await store(p);
    const window = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    expect([
      await s.hit('k', window, 60_000),
      await s.hit('k', window, 60_000),
      await s.hit('k', window, 60_000),
    ]).toEqual([1, 2, 3]);
    expect(await s.hit('other', window, 60_000)).toBe(1);
    expect(await s.hit('k', new Date(window.getTime() + 60_000), 60_000)).toBe(1);
    const inspect = createClient({ url: REDIS_URL });
    await inspect.connect();
    const ttl = await inspect.pTTL(`${p}k:${window.getTime()}`);
    await inspect.close();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(120_000);
  });

  test('two API instances sharing Redis share one limit per client', async () => {
    const p = prefix();
    const env = { TRUST_PROXY: 'true' };
    const [a, b] = await Promise.all([
      startTestApp(env, { rateLimits: await store(p) }),
      startTestApp(env, { rateLimits: await store(p) }),
    ]);
    apps.push(a, b);
    const windowMs = a.config.RATE_LIMIT_WINDOW_SECONDS * 1000;
    const pinned = new Date(Math.floor(Date.now() / windowMs) * windowMs + 1000);
    a.clock.now = b.clock.now = () => pinned;
    const from = { 'x-forwarded-for': '192.0.2.77' };
    const answers = [];
    for (let i = 0; i < 100; i++) {
      const instance = i % 2 === 0 ? a : b;
      answers.push(
        await instance.call('POST', `${S}/gift_cards/apply`, {
          token: newToken(),
          headers: from,
          body: { gift_card: { code: `WRONG-${i}` } },
        }),
      );
    }
    const statuses = answers.map((x) => x.status);
    report('ratelimit-redis-2-instances', {
      instances: 2,
      calls: 100,
      answers: split(statuses),
      limit: a.config.RATE_LIMIT_GIFT_CARD_PER_CLIENT,
      violations: statuses.filter((s) => s === 422).length - a.config.RATE_LIMIT_GIFT_CARD_PER_CLIENT,
    });
    expect(statuses.filter((s) => s === 422)).toHaveLength(a.config.RATE_LIMIT_GIFT_CARD_PER_CLIENT);
    expect(answers.filter((x) => x.status === 429).every((x) => Number(x.headers.get('retry-after')) >= 1)).toBe(true);
  });

  test('Redis going away answers 503 with Retry-After, never 500', async () => {
    const s = await store(prefix());
    const api = await startTestApp({}, { rateLimits: s });
    apps.push(api);
    await s.close();
    const answer = await api.call('POST', `${S}/gift_cards/apply`, {
      token: newToken(),
      body: { gift_card: { code: 'ACME-25' } },
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBeTruthy();
  });

  test('an unreachable REDIS_URL stops start-up with a message naming it', async () => {
    await expect(createRedisLimitStore('redis://127.0.0.1:1', { connectTimeoutMs: 500 })).rejects.toThrow(/REDIS_URL/);
  });
});
