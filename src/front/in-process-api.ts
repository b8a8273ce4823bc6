import type { ApiBindings, ApiFetch } from './front-server.ts';
import { renderingBindings } from './rendering-request.ts';

/** An answer known without calling the API (the snapshot memo's, snapshot-api-memo.ts), else undefined. */
export type KnownAnswer = (url: URL, headers: Headers, bindings: ApiBindings) => Response | undefined;

/**
 * A `fetch` for renders that sends calls to this process's own API (URLs under `ownApiBaseUrls`)
 * straight to Hono's `app.fetch`, instead of over loopback HTTP back into the same process; any
 * other URL (an external API) goes to `network`. The front hands it to Astro in `locals.api`
 * (src/env.d.ts), so nothing patches the global `fetch`. In one process the loopback hop is pure
 * overhead — socket, HTTP parse, serialising twice — and it dominated the 10,000-page build
 * (docs/performance.md). The contract is unchanged: same Request, same Response, and the API sees the
 * shopper whose page is rendering as the caller (rendering-request.ts), not this process. A GET that
 * `known` answers (a snapshot's kept catalog answers) makes no `Request` at all.
 */
export function inProcessApiFetch(
  ownApiBaseUrls: string[],
  apiFetch: ApiFetch,
  { network = globalThis.fetch, known }: { network?: typeof fetch; known?: KnownAnswer } = {},
): typeof fetch {
  const prefixes = ownApiBaseUrls.map((base) => new URL(base).href);
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!prefixes.some((prefix) => url.startsWith(prefix))) return network(input, init);
    if (known && !(input instanceof Request) && (init?.method ?? 'GET') === 'GET' && init?.body == null) {
      init?.signal?.throwIfAborted();
      const headers = init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
      const answer = known(new URL(url), headers, renderingBindings());
      if (answer) return answer;
    }
    const request = new Request(input, init);
    // Callers' timeouts (the middleware gives the store fetch 5 s) still apply without a socket.
    const signal = request.signal;
    signal.throwIfAborted();
    const aborted = new Promise<never>((_, reject) =>
      signal.addEventListener(
        'abort',
        () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted', { cause: signal.reason })),
        { once: true },
      ),
    );
    aborted.catch(() => {}); // A timeout firing after the answer must not become an unhandled rejection.
    // fetch() follows redirects; the API answers none, so a 3xx is handed back as it is.
    return Promise.race([Promise.resolve(apiFetch(request, renderingBindings())), aborted]);
  };
}
