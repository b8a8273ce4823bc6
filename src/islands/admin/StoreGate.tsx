/** What a store's console page shows before its content: loading, sign-in, or a refusal. */
import type { ReactNode } from 'react';
import type { OperatorRole } from '../../lib/contract/answers.ts';
import { useConsoleSession } from './use-console-session.ts';

type GateProps = { slug: string; children: (role: OperatorRole) => ReactNode };

/** Renders `children()` for an owner of the store; otherwise the reason they cannot see it. */
export function OwnerGate(props: GateProps) {
  return <StoreGate {...props} ownersOnly />;
}

/** Renders `children(role)` for anyone on the store's staff, owner or editor. */
export function StaffGate(props: GateProps) {
  return <StoreGate {...props} ownersOnly={false} />;
}

function StoreGate({ slug, children, ownersOnly }: GateProps & { ownersOnly: boolean }) {
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
  return <>{children(store.role)}</>;
}
