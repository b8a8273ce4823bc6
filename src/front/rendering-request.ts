import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import type { ApiBindings } from './front-server.ts';

/**
 * The shopper's request a server-side render is answering, for the API calls that render makes in
 * process (in-process-api.ts): the API then counts them against that shopper's address, as it would
 * if the shopper had called it, instead of against one in-process caller.
 */
const rendering = new AsyncLocalStorage<IncomingMessage>();

/** Runs `render` with `req` as the request every in-process API call it makes is on behalf of. */
export function renderFor<T>(req: IncomingMessage, render: () => T): T {
  return rendering.run(req, render);
}

/** The bindings of the render in progress (its shopper's request), or none outside a render. */
export function renderingBindings(): ApiBindings {
  const incoming = rendering.getStore();
  return incoming ? { incoming } : {};
}

/** Requests made for snapshot renders (page-render.ts): no client sends one. */
const snapshotRenders = new WeakSet<IncomingMessage>();

/** Marks `req` as a snapshot render: its API reads are the page's inputs (docs/decisions/211-incremental-builds.md). */
export function markSnapshotRender(req: IncomingMessage): void {
  snapshotRenders.add(req);
}

/** The page path of the snapshot render whose API call these bindings carry; null for anything else. */
export function snapshotRenderPath(bindings: ApiBindings | undefined): string | null {
  const incoming = bindings && 'incoming' in bindings ? bindings.incoming : undefined;
  return incoming && snapshotRenders.has(incoming as IncomingMessage)
    ? ((incoming as IncomingMessage).url ?? null)
    : null;
}
