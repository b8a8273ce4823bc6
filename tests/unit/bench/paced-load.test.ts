import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  pacedLoad,
  pacedLoadInChild,
  pacedRun,
  type PacedClock,
  type SendRequest,
} from '../../../scripts/bench/paced-load.ts';
import { percentile } from '../../../scripts/bench/stats.ts';

let clock: PacedClock;

/** Runs the schedule to its end on the fake clock. */
async function run(send: SendRequest, options: { rate: number; seconds: number; warmupSeconds?: number }) {
  const figures = pacedRun(send, options, clock);
  await vi.runAllTimersAsync();
  return figures;
}

/** A server that answers after `ms(i)` of fake time. */
const answeringAfter =
  (ms: (i: number) => number, status = 200): SendRequest =>
  (i) =>
    new Promise((resolve) => setTimeout(() => resolve(status), ms(i)));

/** One connection: each answer waits for the one before, which is what a stall does to a keep-alive socket. */
function oneConnection(serviceMs: (i: number) => number): SendRequest {
  let free = 0;
  return (i) => {
    free = Math.max(free, Date.now()) + serviceMs(i);
    return new Promise((resolve) => setTimeout(() => resolve(200), free - Date.now()));
  };
}

describe('pacedRun', () => {
  // The schedule runs on Vitest's fake timers: every figure below is exact, however loaded the machine.
  beforeEach(() => {
    vi.useFakeTimers();
    clock = { now: () => Date.now(), setTimeout: (fn, ms) => setTimeout(fn, ms) };
  });
  afterEach(() => vi.useRealTimers());

  test('spreads requests evenly over the second instead of sending them in a burst', async () => {
    const sentAt: number[] = [];
    const figures = await run(
      (i) => {
        sentAt.push(Date.now());
        return answeringAfter(() => 1)(i);
      },
      { rate: 100, seconds: 1 },
    );
    expect(sentAt).toHaveLength(100);
    const first = sentAt[0]!;
    // An even 100 per second puts 10 in each tenth of the second; a burst would put all 100 in the first.
    expect(sentAt.filter((t) => t - first < 100)).toHaveLength(10);
    expect(sentAt.at(-1)! - first).toBe(990);
    expect(figures).toMatchObject({ non2xx: 0, errors: 0, p50Ms: 1, p99Ms: 1 });
  });

  test('charges a stall to every request that was due during it, not only the one that waited', async () => {
    const figures = await run(
      oneConnection((i) => (i === 0 ? 300 : 1)),
      { rate: 100, seconds: 1 },
    );
    // The 30 requests due in the 300 ms waited behind the first; their latency counts from when they were due.
    expect(figures.p99Ms).toBeGreaterThan(250);
    expect(figures.p50Ms).toBe(1);
  });

  test('warm-up requests are sent at the same rate but not counted', async () => {
    let sent = 0;
    const stalled = oneConnection((i) => (i === 0 ? 300 : 1));
    const figures = await run(
      (i) => {
        sent += 1;
        return stalled(i);
      },
      { rate: 100, seconds: 0.5, warmupSeconds: 0.5 },
    );
    expect(sent).toBe(100);
    // The stall hit the warm-up; the counted half started after it had drained.
    expect(figures.p99Ms).toBe(1);
  });

  test('counts answers outside 2xx and requests without an answer apart', async () => {
    const figures = await run(
      (i) => (i % 5 === 0 ? Promise.reject(new Error('socket hang up')) : answeringAfter(() => 1, 404)(i)),
      { rate: 50, seconds: 0.2 },
    );
    expect(figures).toMatchObject({ non2xx: 8, errors: 2, requestsPerSecond: 0 });
  });
});

describe('pacedLoad over HTTP', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const target = (path: string) => ({ name: 'GET', method: 'GET' as const, path, headers: { 'x-test': '1' } });

  // Real sockets: only counts are checked, never times.
  test('sends every request and reads each status code', { timeout: 30_000 }, async () => {
    const figures = await pacedLoad(base, target('/missing'), { rate: 50, seconds: 0.2, label: 'test' });
    expect(figures).toMatchObject({
      name: 'GET',
      target: 'test',
      non2xx: 10,
      errors: 0,
      offeredRate: 50,
      requestsPerSecond: 0,
    });
  });

  // A child Node process starts slowly on a loaded machine; nothing here depends on how slowly.
  test('runs in a child process with the same figures', { timeout: 60_000 }, async () => {
    const figures = await pacedLoadInChild(base, target('/missing'), { rate: 50, seconds: 0.2, label: 'child' });
    expect(figures).toMatchObject({ target: 'child', non2xx: 10, errors: 0, offeredRate: 50 });
  });
});

describe('percentile', () => {
  test('nearest rank of a sorted list', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile([], 99)).toBe(0);
  });
});
