import { mkdirSync } from 'node:fs';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { claimDataDir } from './data-dir-lock.ts';
import { prepareStatementsOn } from './prepared-statements.ts';
import type { Database } from './schema.ts';

const INT8_OID = 20;

export type DatabaseOptions = {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; undefined or 'memory://' keeps it in memory. */
  dataDir?: string | undefined;
  /** Sets search_path on every PostgreSQL connection (tests use one schema per file). */
  searchPath?: string | undefined;
  poolSize?: number;
};

/** PGlite on a folder this process has claimed (docs/decisions/209-one-process-per-pglite-folder.md). */
class ClaimedPGlite extends PGlite {
  readonly #release: () => void;

  constructor(dir: string, settings: PGliteOptions, release: () => void) {
    super(dir, settings);
    this.#release = release;
  }

  /** Closing gives the folder back, so another process (a storefront a test starts) may open it. */
  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      this.#release();
    }
  }
}

/** The folder PGlite keeps its data in under `options`: none for PostgreSQL or memory. */
function pgliteFolder(options: DatabaseOptions): string | null {
  const dir = options.databaseUrl ? undefined : options.dataDir;
  return dir && !dir.startsWith('memory://') ? dir : null;
}

/**
 * Claims the PGlite folder of `options` (nothing for PostgreSQL) before opening it: a script whose first
 * step is long, such as the Astro build, fails at once beside the folder's holder instead of after that
 * step (docs/decisions/209-one-process-per-pglite-folder.md). Opening it later in this process is allowed.
 */
export function claimDatabaseFolder(options: DatabaseOptions): void {
  const dir = pgliteFolder(options);
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  claimDataDir(dir);
}

/** Opens Kysely on PostgreSQL (DATABASE_URL) or PGlite (DATA_DIR); one dialect, one schema. */
export function openDatabase(options: DatabaseOptions): Kysely<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // No JIT: it is made for long analytical queries, and compiling took 6 ms of a 7-ms read of a
      // page's variants whose row estimate crossed jit_above_cost (docs/decisions/200-listing-index.md).
      options: ['-c jit=off', ...(options.searchPath ? [`-c search_path=${options.searchPath}`] : [])].join(' '),
      // pg returns int8 (count(*), sums) as strings; PGlite returns numbers. Our int8 values are far below 2^53.
      types: {
        // One arrow stands for pg's overloaded getTypeParser; the cast states the overloads it keeps.
        /* eslint-disable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-enum-assignment */
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID
            ? (value: string) => Number(value)
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
        /* eslint-enable @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-enum-assignment */
      },
    });
    // An idle client losing its server must not crash the process; the next query reports it as 503.
    pool.on('error', () => {});
    // A checked-out client can also lose its server between two queries (a restart, an admin
    // shutdown): without a listener that 'error' event would crash the process. The query in
    // flight still fails and is answered 503; the pool drops the broken client.
    pool.on('connect', (client) => {
      client.on('error', () => {});
      prepareStatementsOn(client);
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const dir = pgliteFolder(options);
  // pg_trgm serves search (migration 0012); PGlite ships it but loads only the extensions named here.
  const settings = { extensions: { pg_trgm } };
  let pglite: PGlite;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    pglite = new ClaimedPGlite(dir, settings, claimDataDir(dir));
  } else pglite = new PGlite(settings);
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
}
