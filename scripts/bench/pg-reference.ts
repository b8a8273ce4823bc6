import { load, type LoadFigures } from './api-bench.ts';
import { BENCH } from './bench-env.ts';
import { pacedLoadInChild } from './paced-load.ts';
import { startScript } from './storefront-process.ts';

/** The one-round-trip PostgreSQL reference, closed-loop and evenly paced at a rate set from it. */
export type PgReferenceFigures = {
  /** As fast as it answers (autocannon, 10 connections), with its CPU per request. */
  ceiling: LoadFigures;
  /** Reads evenly paced at `ceiling × fraction`: the rate our budgeted calls are paced at too. */
  paced: LoadFigures;
  /** Committed inserts paced at the same rate: the reference of the budgeted cart write. */
  pacedWrite?: LoadFigures;
};

/**
 * Starts scripts/bench/bare-pg-server.ts on `databaseUrl`, measures how fast it answers, then its p99
 * paced at `fraction` of that (docs/decisions/215-references-that-share-the-bottleneck.md).
 */
export async function measurePgReference(
  databaseUrl: string,
  slug: string,
  fraction: number,
  seconds: number,
): Promise<PgReferenceFigures> {
  const server = await startScript(
    'scripts/bench/bare-pg-server.ts',
    BENCH.port.barePg,
    `http://127.0.0.1:${BENCH.port.barePg}/read`,
    { DATABASE_URL: databaseUrl, STORE_SLUG: slug },
  );
  const target = { name: 'bare node:http + 1 PostgreSQL read', method: 'GET' as const, path: '/read' };
  try {
    const label = 'node:http + pg';
    await load(server.url, target, 1, { label });
    const ceiling = await load(server.url, target, seconds, { label, serverPid: server.child.pid });
    const options = {
      rate: pacedRate(ceiling, fraction),
      seconds: Math.max(seconds, 10),
      warmupSeconds: 1,
      label: `${label}, paced`,
    };
    const paced = await pacedLoadInChild(server.url, { ...target, headers: {} }, options);
    const write = { name: 'bare node:http + 1 PostgreSQL committed insert', method: 'GET' as const, path: '/write' };
    const pacedWrite = await pacedLoadInChild(server.url, { ...write, headers: {} }, options);
    return { ceiling, paced, pacedWrite };
  } finally {
    await server.stop();
  }
}

/** `fraction` of a closed-loop figure's requests per second, at least 1. */
export const pacedRate = (ceiling: LoadFigures, fraction: number): number =>
  Math.max(1, Math.round(ceiling.requestsPerSecond * fraction));
