import { useEffect, useState } from 'react';
import type { ConsoleSession } from '../../lib/contract/answers.ts';
import { consoleApi, ConsoleError } from '../../lib/api-client/console-api.ts';

export type SessionState =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'failed'; message: string }
  | { kind: 'signed-in'; session: ConsoleSession };

/** The console session of this browser, read once when the island mounts. */
export function useConsoleSession(): SessionState {
  const [state, setState] = useState<SessionState>({ kind: 'loading' });
  useEffect(() => {
    consoleApi
      .me()
      .then((session) => setState({ kind: 'signed-in', session }))
      .catch((error: unknown) =>
        setState(
          error instanceof ConsoleError && error.status === 401
            ? { kind: 'signed-out' }
            : { kind: 'failed', message: error instanceof Error ? error.message : String(error) },
        ),
      );
  }, []);
  return state;
}
