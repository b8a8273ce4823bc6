/**
 * The figures every reliability test prints (docs/reliability.md), in one recognisable format:
 * `[reliability] <name> <database>: key=value …`.
 */

import { percentile as nearestRank } from '../../../scripts/bench/stats.ts';

export const databaseLabel = () => (process.env.DATABASE_URL ? 'postgres' : 'pglite');

/** The p-th percentile (nearest rank) of unsorted samples, as the bench computes it. */
export const percentile = (samples: readonly number[], p: number): number =>
  nearestRank(
    [...samples].sort((a, b) => a - b),
    p,
  );

/** `{200: 49, 409: 1}` for a list of statuses. */
export function split(statuses: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return `{${[...counts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}:${n}`)
    .join(',')}}`;
}

export function report(name: string, fields: Record<string, string | number>, latenciesMs?: readonly number[]): void {
  const parts = Object.entries(fields).map(([k, v]) => `${k}=${v}`);
  if (latenciesMs)
    parts.push(`p50=${Math.round(percentile(latenciesMs, 50))}ms`, `p99=${Math.round(percentile(latenciesMs, 99))}ms`);
  console.log(`[reliability] ${name} ${databaseLabel()}: ${parts.join(' ')}`);
}

/** Runs `fn` and answers its result with the wall time in ms. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

/** Runs `tasks` with at most `width` in flight. */
export async function pool<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}
