/**
 * The API runtime or the database for a script, or exit 1 with the reason: a bad variable, an
 * unreachable database or a PGlite folder another process has open is the operator's to fix, so they
 * get the message (and its cause), not a stack trace.
 */
import type { Config } from '../src/server/config.ts';
import { claimDatabaseFolder, openDatabase } from '../src/server/db/connect.ts';
import { createApiRuntime } from '../src/server/runtime.ts';

export function exitWithReason(error: unknown): never {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause) console.error(error.cause);
  process.exit(1);
}

export async function apiRuntimeOrExit(
  ...args: Parameters<typeof createApiRuntime>
): ReturnType<typeof createApiRuntime> {
  try {
    return await createApiRuntime(...args);
  } catch (error) {
    exitWithReason(error);
  }
}

/** The database of DATABASE_URL, or of DATA_DIR with PGlite. */
export function openDatabaseOrExit(config: Config): ReturnType<typeof openDatabase> {
  try {
    return openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  } catch (error) {
    exitWithReason(error);
  }
}

/** Claims DATA_DIR when the database is PGlite, before a step that must not run beside the folder's holder. */
export function claimDatabaseFolderOrExit(config: Config): void {
  try {
    claimDatabaseFolder({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  } catch (error) {
    exitWithReason(error);
  }
}
