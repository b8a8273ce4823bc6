/**
 * /admin/signin?token=…: spends the emailed token only when the operator presses Sign in (a POST), so
 * a mail scanner that opens the link cannot spend it (docs/decisions/197-operator-auth.md).
 */
import { useState } from 'react';
import { consoleApi, ConsoleError } from '../../lib/api-client/console-api.ts';

export default function ConsoleSignIn({ token }: { token: string }) {
  const [failure, setFailure] = useState<string | null>(token ? null : 'This sign-in link is not valid.');
  const [sending, setSending] = useState(false);

  async function signIn() {
    setSending(true);
    setFailure(null);
    try {
      await consoleApi.confirmSignIn(token);
      window.location.assign('/admin');
    } catch (error) {
      setFailure(
        error instanceof ConsoleError ? (Object.values(error.errors)[0]?.[0] ?? error.message) : String(error),
      );
      setSending(false);
    }
  }

  return (
    <>
      <h1>Sign in to the store console</h1>
      {failure ? (
        <>
          <div className="alert alert--error" role="alert">
            {failure}
          </div>
          <p>
            <a href="/admin">Ask for a new sign-in link</a>
          </p>
        </>
      ) : (
        <button type="button" className="button button--primary" disabled={sending} onClick={() => void signIn()}>
          Sign in
        </button>
      )}
    </>
  );
}
