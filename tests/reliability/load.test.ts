/**
 * Reliability (docs/reliability.md), load: the mixed shopper load of scripts/load/mixed-load.ts against the real API on
 * PostgreSQL at a fixed rate, with zero errors. CI runs 15 s (LOAD_SECONDS); the bench runs 60 s.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runMixedLoad } from '../../scripts/load/mixed-load.ts';
import { CART_TOKEN_SECRET, startPgApi, type PgApi } from './support/pg-api.ts';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 15);
const RATE = Number(process.env.LOAD_RATE ?? 200);

let api: PgApi;
beforeAll(async () => {
  api = await startPgApi();
});
afterAll(async () => api?.close());

test(
  `a mix of store, product, cart and line-item calls at ${RATE} requests/s for ${SECONDS} s answers without a single error`,
  async () => {
    const figures = await runMixedLoad({
      baseUrl: api.baseUrl,
      durationSeconds: SECONDS,
      rate: RATE,
      cartTokenSecret: CART_TOKEN_SECRET,
    });
    console.log(
      `[reliability] load postgres: seconds=${figures.durationSeconds} rate=${figures.rate}/s requests=${figures.requests} throughput=${figures.throughput}/s errors=${figures.errors} timeouts=${figures.timeouts} non2xx=${figures.non2xx} codes=${JSON.stringify(figures.statusCodes)} p50=${figures.p50Ms}ms p99=${figures.p99Ms}ms`,
    );
    expect(figures.errors).toBe(0);
    expect(figures.timeouts).toBe(0);
    expect(figures.non2xx).toBe(0);
    // The rate was held: at least 90 % of the requests the schedule asked for were made.
    expect(figures.requests).toBeGreaterThanOrEqual(Math.floor(SECONDS * RATE * 0.9));
  },
  (SECONDS + 60) * 1000,
);
