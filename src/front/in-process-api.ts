import type { ApiFetch } from './front-server.ts';

/**
 * Sends this process's `fetch()` calls to its own API (loopback URLs of its port) straight to Hono's
 * `app.fetch`, instead of over loopback HTTP back into the same process. Astro's server-side
 * renders and the snapshot build reach the API through the api client's global `fetch`
 * (design.md: the storefront talks to the API over HTTP); in one process that hop is pure
 * overhead — socket, HTTP parse, serialising twice — and it dominated the 10,000-page build
 * (docs/performance.md). The contract is unchanged: same Request, same Response.
 * Returns a function that puts the original `fetch` back.
 */
export function routeOwnApiCallsInProcess(ownApiBaseUrls: string[], apiFetch: ApiFetch): () => void {
  const original = globalThis.fetch;
  const prefixes = ownApiBaseUrls.map((base) => new URL(base).href);
  const inProcess: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!prefixes.some((prefix) => url.startsWith(prefix))) return original(input, init);
    const request = new Request(input, init);
    // Callers' timeouts (the middleware gives the store fetch 5 s) still apply without a socket.
    const signal = request.signal;
    signal.throwIfAborted();
    const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    aborted.catch(() => {}); // A timeout firing after the answer must not become an unhandled rejection.
    // fetch() follows redirects; the API answers none, so a 3xx is handed back as it is.
    return Promise.race([Promise.resolve(apiFetch(request)), aborted]);
  };
  globalThis.fetch = inProcess;
  return () => {
    if (globalThis.fetch === inProcess) globalThis.fetch = original;
  };
}
