import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pacedLoad, pacedLoadInChild } from '../../../scripts/bench/paced-load.ts';
import { percentile } from '../../../scripts/bench/stats.ts';

let server: Server;
let base: string;
let arrivals: number[] = [];
/** Milliseconds the next answer waits (then back to 0): a server that stalls once. */
let stallOnce = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    arrivals.push(performance.now());
    const wait = stallOnce;
    stallOnce = 0;
    setTimeout(() => {
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
      res.end('{}');
    }, wait);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const target = (path = '/') => ({ name: 'GET', method: 'GET' as const, path, headers: {} });

describe('pacedLoad', () => {
  test('spreads requests evenly over the second instead of sending them in a burst', async () => {
    arrivals = [];
    const figures = await pacedLoad(base, target(), { rate: 100, seconds: 1, label: 'test' });
    expect(arrivals).toHaveLength(100);
    const first = arrivals[0]!;
    // An even 100 per second puts about 10 in each tenth of the second; a burst puts all 100 in the first.
    expect(arrivals.filter((t) => t - first < 100).length).toBeLessThan(25);
    expect(arrivals.at(-1)! - first).toBeGreaterThan(900);
    expect(figures).toMatchObject({ requestsPerSecond: expect.any(Number), non2xx: 0, errors: 0, offeredRate: 100 });
    expect(figures.requestsPerSecond).toBeGreaterThan(80);
  });

  test('charges a stall to every request that was due during it, not only the one that waited', async () => {
    stallOnce = 300;
    const figures = await pacedLoad(base, target(), { rate: 100, seconds: 1, maxSockets: 1, label: 'test' });
    // One connection: the 30 requests due in the 300 ms waited behind the first; their latency counts from when they were due.
    expect(figures.p99Ms).toBeGreaterThan(250);
    expect(figures.p50Ms).toBeLessThan(100);
  });

  test('warm-up requests are sent at the same rate but not counted', async () => {
    arrivals = [];
    stallOnce = 300;
    const figures = await pacedLoad(base, target(), { rate: 100, seconds: 0.5, warmupSeconds: 0.5, maxSockets: 1, label: 'test' });
    expect(arrivals).toHaveLength(100);
    // The stall hit the warm-up; the counted half started after it had drained.
    expect(figures.p99Ms).toBeLessThan(250);
  });

  test('runs in a child process with the same figures', async () => {
    const figures = await pacedLoadInChild(base, { ...target('/missing'), headers: { 'x-test': '1' } }, { rate: 50, seconds: 0.2, label: 'child' });
    expect(figures).toMatchObject({ target: 'child', non2xx: 10, errors: 0, offeredRate: 50 });
  });

  test('counts answers outside 2xx', async () => {
    const figures = await pacedLoad(base, target('/missing'), { rate: 50, seconds: 0.2, label: 'test' });
    expect(figures.non2xx).toBe(10);
    expect(figures.requestsPerSecond).toBe(0);
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
