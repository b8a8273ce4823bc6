import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import type { LoadFigures } from './api-bench.ts';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { newBenchCartToken } from './bench-env.ts';
import { percentile, round } from './stats.ts';

const execFileAsync = promisify(execFile);

/** A request to repeat; plain data, so a child process can run it (scripts/bench/paced-load-cli.ts). */
export type PacedTarget = {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A new `recipient-token` on every request: a new shopper each time. */
  newShopperEach?: boolean;
};

export type PacedOptions = {
  rate: number;
  seconds: number;
  /** Seconds sent first at the same rate and not counted: connections opened, code warm. */
  warmupSeconds?: number;
  maxSockets?: number;
  label: string;
};

/**
 * An open-loop load at an even rate: request i is due at `start + i / rate` whatever happened to the
 * ones before, and its latency is counted from when it was due, not from when it went out (so a
 * server that falls behind is charged for the wait, as wrk2 and k6's constant-arrival-rate do).
 *
 * autocannon's `overallRate` is not that: each connection sends as fast as it can until it has made its
 * share of the second, then waits for the next second, so "1,000 per second" arrives as a burst at the
 * top of every second, and its latency correction assumes 1 ms between requests. Its figures are kept
 * beside these (docs/decisions/060).
 */
export async function pacedLoad(baseUrl: string, target: PacedTarget, options: PacedOptions): Promise<LoadFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
  try {
    const run = await pacedRun(httpSender(new URL(baseUrl), target, agent), options);
    return { name: target.name, target: options.label, ...run, offeredRate: options.rate };
  } finally {
    agent.destroy();
  }
}

/** Sends request `i` and resolves with its status code; rejects when there is no answer. */
export type SendRequest = (i: number) => Promise<number>;

/** Time for the schedule: `performance.now()` and timers by default, a fake clock in tests. */
export type PacedClock = {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
};

const realClock: PacedClock = { now: () => performance.now(), setTimeout: (fn, ms) => setTimeout(fn, ms) };

/** The open-loop schedule of `pacedLoad` over any sender: counts and latencies of the counted requests. */
export async function pacedRun(
  send: SendRequest,
  options: Pick<PacedOptions, 'rate' | 'seconds' | 'warmupSeconds'>,
  clock: PacedClock = realClock,
): Promise<Omit<LoadFigures, 'name' | 'target' | 'offeredRate'>> {
  const warmup = Math.round(options.rate * (options.warmupSeconds ?? 0));
  const total = warmup + Math.round(options.rate * options.seconds);
  const intervalMs = 1000 / options.rate;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let finished = 0;
  const start = clock.now() + 50;
  let countedFrom = start;

  await new Promise<void>((resolve) => {
    const done = () => {
      finished += 1;
      if (finished === total) resolve();
    };
    const fire = (i: number, dueAt: number) => {
      const counted = i >= warmup;
      send(i).then(
        (status) => {
          if (counted) {
            latencies.push(clock.now() - dueAt);
            if (status < 200 || status > 299) non2xx += 1;
          }
          done();
        },
        () => {
          if (counted) errors += 1;
          done();
        },
      );
    };
    // Timers fire late by a millisecond or so; every tick sends all requests that are due by then.
    const tick = () => {
      const now = clock.now();
      while (sent < total && start + sent * intervalMs <= now) {
        if (sent === warmup) countedFrom = start + sent * intervalMs;
        fire(sent, start + sent * intervalMs);
        sent += 1;
      }
      if (sent < total) clock.setTimeout(tick, Math.max(0, start + sent * intervalMs - clock.now()));
    };
    clock.setTimeout(tick, 50);
  });

  const sorted = latencies.sort((a, b) => a - b);
  const elapsedSeconds = (clock.now() - countedFrom) / 1000;
  return {
    requestsPerSecond: round((total - warmup - non2xx - errors) / elapsedSeconds),
    p50Ms: round(percentile(sorted, 50), 2),
    p99Ms: round(percentile(sorted, 99), 2),
    non2xx,
    errors,
  };
}

function httpSender(url: URL, target: PacedTarget, agent: Agent): SendRequest {
  return () =>
    new Promise<number>((resolve, reject) => {
      const body = target.body;
      const headers = target.newShopperEach
        ? { ...target.headers, 'recipient-token': newBenchCartToken() }
        : target.headers;
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: target.path,
          method: target.method,
          agent,
          headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

/** `pacedLoad` in a child process, so the bench's own heap and timers cannot delay the requests. */
export async function pacedLoadInChild(
  baseUrl: string,
  target: PacedTarget,
  options: PacedOptions,
): Promise<LoadFigures> {
  const cli = fileURLToPath(new URL('./paced-load-cli.ts', import.meta.url));
  const { stdout } = await execFileAsync(process.execPath, [cli, JSON.stringify({ baseUrl, target, options })], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout) as LoadFigures;
}
