import { load, type LoadFigures } from './api-bench.ts';
import { BENCH } from './bench-env.ts';
import { pacedLoadInChild } from './paced-load.ts';
import { startScript, type RunningServer } from './storefront-process.ts';

/** The one-round-trip PostgreSQL reference, closed-loop and evenly paced at a rate set from it. */
export type PgReferenceFigures = {
  /** As fast as it answers (autocannon, 10 connections), with its CPU per request. */
  ceiling: LoadFigures;
  /** Reads evenly paced at `ceiling × fraction`: the rate our budgeted calls are paced at too. */
  paced: LoadFigures;
  /** Committed inserts paced at the same rate: the reference of the budgeted cart write. */
  pacedWrite?: LoadFigures;
};

/** Runs `measure` against scripts/bench/bare-pg-server.ts on `databaseUrl`, started once it has made its tables. */
async function withPgReference<T>(
  databaseUrl: string,
  slug: string,
  measure: (server: RunningServer) => Promise<T>,
): Promise<T> {
  const server = await startScript(
    'scripts/bench/bare-pg-server.ts',
    BENCH.port.barePg,
    `http://127.0.0.1:${BENCH.port.barePg}/read`,
    { DATABASE_URL: databaseUrl, STORE_SLUG: slug },
  );
  try {
    return await measure(server);
  } finally {
    await server.stop();
  }
}

const LABEL = 'node:http + pg';

/** A second's warm-up, then the reference as fast as it answers for `seconds`, with its CPU per request. */
async function closedLoop(
  server: RunningServer,
  target: { name: string; method: 'GET'; path: string },
  seconds: number,
  connections?: number,
): Promise<LoadFigures> {
  const options = { label: LABEL, ...(connections ? { connections } : {}) };
  await load(server.url, target, 1, options);
  return load(server.url, target, seconds, { ...options, serverPid: server.child.pid });
}

/**
 * Starts scripts/bench/bare-pg-server.ts on `databaseUrl`, measures how fast it answers, then its p99
 * paced at `fraction` of that (docs/decisions/215-references-that-share-the-bottleneck.md).
 */
export function measurePgReference(
  databaseUrl: string,
  slug: string,
  fraction: number,
  seconds: number,
): Promise<PgReferenceFigures> {
  const target = { name: 'bare node:http + 1 PostgreSQL read', method: 'GET' as const, path: '/read' };
  return withPgReference(databaseUrl, slug, async (server) => {
    const ceiling = await closedLoop(server, target, seconds);
    const options = {
      rate: pacedRate(ceiling, fraction),
      seconds: Math.max(seconds, 10),
      warmupSeconds: 1,
      label: `${LABEL}, paced`,
    };
    const paced = await pacedLoadInChild(server.url, { ...target, headers: {} }, options);
    const write = { name: 'bare node:http + 1 PostgreSQL committed insert', method: 'GET' as const, path: '/write' };
    const pacedWrite = await pacedLoadInChild(server.url, { ...write, headers: {} }, options);
    return { ceiling, paced, pacedWrite };
  });
}

/** `fraction` of a closed-loop figure's requests per second, at least 1. */
export const pacedRate = (ceiling: LoadFigures, fraction: number): number =>
  Math.max(1, Math.round(ceiling.requestsPerSecond * fraction));

/**
 * Starts scripts/bench/bare-pg-server.ts on `databaseUrl` and measures, closed-loop with `connections`
 * at once, how many units a second it takes from three hot rows, each take committed on its own: the
 * reference of orders under contention (docs/decisions/218-orders-against-hot-row-takes.md).
 */
export function measureHotRowReference(
  databaseUrl: string,
  slug: string,
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  const target = { name: 'bare node:http + 1 committed take from 3 hot rows', method: 'GET' as const, path: '/take' };
  return withPgReference(databaseUrl, slug, (server) => closedLoop(server, target, seconds, connections));
}
