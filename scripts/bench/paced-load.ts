import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { LoadFigures } from './api-bench.ts';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { percentile, round } from './stats.ts';

const execFileAsync = promisify(execFile);

/** A request to repeat; plain data, so a child process can run it (scripts/bench/paced-load-cli.ts). */
export interface PacedTarget {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A new `recipient-token` on every request: a new shopper each time. */
  newShopperEach?: boolean;
}

export interface PacedOptions {
  rate: number;
  seconds: number;
  /** Seconds sent first at the same rate and not counted: connections opened, code warm. */
  warmupSeconds?: number;
  maxSockets?: number;
  label: string;
}

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
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
  const warmup = Math.round(options.rate * (options.warmupSeconds ?? 0));
  const total = warmup + Math.round(options.rate * options.seconds);
  const intervalMs = 1000 / options.rate;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let finished = 0;
  const start = performance.now() + 50;
  let countedFrom = start;

  await new Promise<void>((resolve) => {
    const fire = (i: number, dueAt: number) => {
      const body = target.body;
      const headers = target.newShopperEach ? { ...target.headers, 'recipient-token': randomBytes(24).toString('base64url') } : target.headers;
      const counted = i >= warmup;
      const req = request(
        { host: url.hostname, port: url.port, path: target.path, method: target.method, agent, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (counted) {
              latencies.push(performance.now() - dueAt);
              if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode > 299) non2xx += 1;
            }
            done();
          });
        },
      );
      req.on('error', () => {
        if (counted) errors += 1;
        done();
      });
      req.end(body);
    };
    const done = () => {
      finished += 1;
      if (finished === total) resolve();
    };
    // Timers fire late by a millisecond or so; every tick sends all requests that are due by then.
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * intervalMs <= now) {
        if (sent === warmup) countedFrom = start + sent * intervalMs;
        fire(sent, start + sent * intervalMs);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()));
    };
    setTimeout(tick, 50);
  });
  agent.destroy();

  const sorted = latencies.sort((a, b) => a - b);
  const elapsedSeconds = (performance.now() - countedFrom) / 1000;
  return {
    name: target.name,
    target: options.label,
    requestsPerSecond: round((total - warmup - non2xx - errors) / elapsedSeconds),
    p50Ms: round(percentile(sorted, 50), 2),
    p99Ms: round(percentile(sorted, 99), 2),
    non2xx,
    errors,
    offeredRate: options.rate,
  };
}

/** `pacedLoad` in a child process, so the bench's own heap and timers cannot delay the requests. */
export async function pacedLoadInChild(baseUrl: string, target: PacedTarget, options: PacedOptions): Promise<LoadFigures> {
  const cli = fileURLToPath(new URL('./paced-load-cli.ts', import.meta.url));
  const { stdout } = await execFileAsync(process.execPath, [cli, JSON.stringify({ baseUrl, target, options })], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as LoadFigures;
}
