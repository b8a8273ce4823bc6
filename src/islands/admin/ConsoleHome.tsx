/**
 * /admin: the sign-in form when signed out; once signed in, the operator's stores with their role and their
 * sections (console-sections.ts: the catalog, gift cards, orders, publishing and, for owners, settings, staff,
 * the audit log and a restricted store's access), sign out and sign out everywhere.
 */
import { useState } from 'react';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { sectionsFor, sectionUrl } from './console-sections.ts';
import { SignInForm } from './SignInForm.tsx';
import { useConsoleSession } from './use-console-session.ts';

export default function ConsoleHome() {
  const state = useConsoleSession();
  const [signedOut, setSignedOut] = useState<string | null>(null);

  async function signOut(everywhere: boolean) {
    const answer = await (everywhere ? consoleApi.signOutEverywhere() : consoleApi.signOut());
    setSignedOut(answer.message);
  }

  if (state.kind === 'loading') return <p role="status">Loading…</p>;
  if (state.kind === 'failed')
    return (
      <div className="alert alert--error" role="alert">
        {state.message}
      </div>
    );
  if (state.kind === 'signed-out' || signedOut !== null)
    return (
      <>
        {signedOut && <p role="status">{signedOut}</p>}
        <h1>Sign in to the store console</h1>
        <SignInForm />
      </>
    );

  const { session } = state;
  return (
    <>
      <h1>Your stores</h1>
      <p>Signed in as {session.email}.</p>
      {session.stores.length === 0 ? (
        <p>You are not on any store’s staff any more.</p>
      ) : (
        <ul className="console__stores">
          {session.stores.map((store) => (
            <li key={store.slug} className="console__panel">
              <h2>{store.title}</h2>
              <p>{store.role === 'owner' ? 'Owner' : 'Editor'}</p>
              <p className="console__links">
                {sectionsFor(store).map((section) => (
                  <a key={section.path} href={sectionUrl(store, section)}>
                    {section.storeLabel(store.title)}
                  </a>
                ))}
              </p>
            </li>
          ))}
        </ul>
      )}
      <p className="console__links">
        <button type="button" className="button" onClick={() => void signOut(false)}>
          Sign out
        </button>
        <button type="button" className="button" onClick={() => void signOut(true)}>
          Sign out everywhere
        </button>
      </p>
    </>
  );
}
