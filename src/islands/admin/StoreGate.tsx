/** What a store's console page shows before its content: loading, sign-in, or a refusal; then the store's navigation. */
import type { ReactNode } from 'react';
import type { ConsoleSession } from '../../lib/contract/answers.ts';
import { StoreNav } from './StoreNav.tsx';
import { useConsoleSession } from './use-console-session.ts';

/** The store a console page is about, as the session names it: slug, title and the operator's role. */
export type ConsoleStore = ConsoleSession['stores'][number];

type GateProps = { slug: string; children: (store: ConsoleStore) => ReactNode };

function Gate({ slug, ownersOnly, children }: GateProps & { ownersOnly: boolean }) {
  const state = useConsoleSession();
  if (state.kind === 'loading') return <p role="status">Loading…</p>;
  if (state.kind === 'signed-out')
    return (
      <p>
        Please <a href="/admin">sign in to the console</a>.
      </p>
    );
  if (state.kind === 'failed')
    return (
      <div className="alert alert--error" role="alert">
        {state.message}
      </div>
    );
  const store = state.session.stores.find((s) => s.slug === slug);
  if (!store)
    return (
      <div className="alert alert--error" role="alert">
        This store does not exist or you have no access to it. <a href="/admin">Your stores</a>
      </div>
    );
  if (ownersOnly && store.role !== 'owner')
    return (
      <div className="alert alert--error" role="alert">
        Only the store’s owners can see this page. <a href="/admin">Your stores</a>
      </div>
    );
  return (
    <>
      <StoreNav store={store} />
      {children(store)}
    </>
  );
}

/** Renders `children(store)` for an owner of the store; otherwise the reason they cannot see it. */
export function OwnerGate(props: GateProps) {
  return <Gate {...props} ownersOnly />;
}

/** Renders `children(store)` for anyone on the store's staff (owners and editors). */
export function StaffGate(props: GateProps) {
  return <Gate {...props} ownersOnly={false} />;
}
