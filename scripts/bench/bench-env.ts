import { existsSync } from 'node:fs';
import path from 'node:path';
import { cartTokenSigner } from '../../src/server/carts/cart-tokens.ts';

/** Where Debian's PostgreSQL listens on this host besides TCP; libpq's default way to reach it. */
const LOCAL_SOCKET_DIR = '/var/run/postgresql';

/** The first of the bench's 20 ports; BENCH_PORT_BASE moves them, so two checkouts can bench at once. */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 4470);

/**
 * Where the bench keeps its things: ports 4470-4489 (from BENCH_PORT_BASE), `.data-bench*` folders and `dist-bench`
 * (team.md), so it never touches another checkout's server, database or build.
 */
export const BENCH = {
  distDir: path.resolve(process.env.BENCH_DIST_DIR ?? 'dist-bench'),
  demoDataDir: path.resolve('.data-bench'),
  demoBuildsDir: path.resolve('.data-bench-builds'),
  bigDataDir: path.resolve('.data-bench-10k'),
  bigBuildsDir: path.resolve('.data-bench-10k-builds'),
  bigCatalogFile: path.resolve('.data-bench-10k-catalog.json'),
  pgBuildsDir: path.resolve('.data-bench-pg-builds'),
  /** Earlier runs' outputs moved out of the way of the timed builds, deleted after them (settle-disk.ts). */
  trashDir: path.resolve('.data-bench-trash'),
  port: {
    storefront: PORT_BASE,
    bare: PORT_BASE + 1,
    storefrontPg: PORT_BASE + 2,
    nginx: PORT_BASE + 3,
    sirv: PORT_BASE + 4,
    nginxAllCores: PORT_BASE + 6,
    /** The one-round-trip PostgreSQL reference (scripts/bench/bare-pg-server.ts). */
    barePg: PORT_BASE + 12,
  },
  /**
   * A PostgreSQL on the same host is reached by its Unix socket, as a same-host deployment should
   * (docs/performance.md has TCP figures beside them); BENCH_POSTGRES_URL to choose.
   */
  postgresAdminUrl:
    process.env.BENCH_POSTGRES_URL ??
    (existsSync(`${LOCAL_SOCKET_DIR}/.s.PGSQL.5432`)
      ? `postgres://postgres@localhost/test?host=${LOCAL_SOCKET_DIR}`
      : 'postgres://postgres@127.0.0.1:5432/test'),
} as const;

/**
 * The cart token key of every storefront the bench starts, so the load can make a new shopper per
 * request as a browser would after its first `GET …/cart`: with a token the API issued.
 */
export const BENCH_CART_TOKEN_SECRET = 'bench-cart-token-secret-0123456789abcdef';
const benchTokens = cartTokenSigner(BENCH_CART_TOKEN_SECRET);
/** A new shopper's cart token, as the bench's storefronts issue them. */
export const newBenchCartToken = (): string => benchTokens.issue();

/** The environment every child the bench starts gets: Node 24 first in PATH, quiet logs, source maps. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const bin = path.dirname(process.execPath);
  return {
    ...process.env,
    PATH: `${bin}:${path.resolve('node_modules/.bin')}:${process.env.PATH ?? ''}`,
    DIST_DIR: BENCH.distDir,
    // Hidden source maps let the JS section attribute chunk bytes to packages (astro.config.mjs).
    ASTRO_SOURCEMAP: 'hidden',
    ASTRO_TELEMETRY_DISABLED: '1',
    // One log line per API request would measure the logger, not the API.
    LOG_LEVEL: 'warn',
    CART_TOKEN_SECRET: BENCH_CART_TOKEN_SECRET,
    ...extra,
  };
}
