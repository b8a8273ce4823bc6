import type { Requester } from './requester.ts';

/** Calls with their requester bound: what a loader that takes an injected API (or a test stub) calls. */
export type BoundCalls<T> = {
  [K in keyof T]: T[K] extends (request: Requester, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/**
 * Binds the named calls to one requester, for code that is handed an API object (the server's page
 * loaders, stubbed in tests); only the calls named are bundled.
 */
export function bindCalls<T extends Record<string, (request: Requester, ...args: never[]) => unknown>>(
  request: Requester,
  calls: T,
): BoundCalls<T> {
  const bound: Record<string, unknown> = {};
  for (const [name, call] of Object.entries(calls)) bound[name] = (...args: never[]) => call(request, ...args);
  return bound as BoundCalls<T>;
}
