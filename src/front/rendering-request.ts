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
