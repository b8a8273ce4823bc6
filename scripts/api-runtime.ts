/**
 * The API runtime for a script, or exit 1 with the reason: a bad variable or an unreachable
 * database is the operator's to fix, so they get the message (and its cause), not a stack trace.
 */
import { createApiRuntime } from '../src/server/runtime.ts';

export async function apiRuntimeOrExit(
  ...args: Parameters<typeof createApiRuntime>
): ReturnType<typeof createApiRuntime> {
  try {
    return await createApiRuntime(...args);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    if (error instanceof Error && error.cause) console.error(error.cause);
    process.exit(1);
  }
}
