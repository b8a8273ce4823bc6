import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AstroHandler, FrontLocals } from './front-server.ts';
import { markSnapshotRender, renderFor } from './rendering-request.ts';

/** A page as a snapshot keeps it: its status, its type and its bytes. */
export type RenderedPage = { status: number; contentType: string; body: Uint8Array<ArrayBuffer> };

/**
 * The request a snapshot render answers, made here rather than received: a GET of `path` with no cookie and
 * no body, from this host. It is marked as a snapshot render, so the API calls made on its behalf are the
 * page's inputs (docs/decisions/211-incremental-builds.md).
 */
function snapshotRequest(path: string, host: string): IncomingMessage {
  const request = {
    method: 'GET',
    url: path,
    headers: { host, 'accept-encoding': 'identity' },
    // What Astro and the API's rate limit read of a socket: the caller's address, and no TLS.
    socket: { remoteAddress: '127.0.0.1' },
    once: () => request,
  } as unknown as IncomingMessage;
  markSnapshotRender(request);
  return request;
}

const callbackIn = (args: unknown[]) => args.find((arg): arg is () => void => typeof arg === 'function');

/** The answer Astro's Node handler writes, kept in memory instead of sent (only what the handler calls). */
class KeptResponse {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  readonly #headers = new Map<string, number | string | string[]>();
  readonly #chunks: Uint8Array[] = [];
  readonly #ended = Promise.withResolvers<undefined>();
  readonly ended = this.#ended.promise;

  constructor() {
    // Awaited once the handler returns: a render abandoned before that must not be an unhandled rejection.
    this.ended.catch(() => undefined);
  }

  setHeader(name: string, value: number | string | string[]): this {
    this.#headers.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string): number | string | string[] | undefined {
    return this.#headers.get(name.toLowerCase());
  }
  writeHead(status: number, headers?: Record<string, number | string | string[] | undefined>): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }
  // `ServerResponse`'s signatures: an encoding may come between the chunk and the callback, and `end` may
  // be given the callback alone.
  write(chunk: Uint8Array | string, ...rest: unknown[]): boolean {
    this.headersSent = true;
    this.#chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    callbackIn(rest)?.();
    return true;
  }
  end(...args: unknown[]): this {
    const [chunk] = args;
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) this.write(chunk);
    this.headersSent = true;
    this.#ended.resolve(undefined);
    callbackIn(args)?.();
    return this;
  }
  destroy(error?: Error): this {
    this.#ended.reject(error ?? new Error('The render was abandoned'));
    return this;
  }
  // Astro listens for the socket closing to abort a render: a kept answer's never closes.
  on(): this {
    return this;
  }
  once(): this {
    return this;
  }
  off(): this {
    return this;
  }
  removeListener(): this {
    return this;
  }

  page(): RenderedPage {
    const type = this.#headers.get('content-type');
    // A buffer of its own (not a slice of Node's shared pool, as Buffer.concat may give): it can be moved to another thread.
    const body = new Uint8Array(this.#chunks.reduce((bytes, chunk) => bytes + chunk.length, 0));
    let at = 0;
    for (const chunk of this.#chunks) {
      body.set(chunk, at);
      at += chunk.length;
    }
    return { status: this.statusCode, contentType: typeof type === 'string' ? type : '', body };
  }
}

/**
 * Renders one page of a snapshot with Astro's Node handler, without a socket: the request is made here and
 * the answer kept in memory. Over loopback HTTP, both ends of each page's request ran on the build's main
 * thread beside Astro and the database: without them the 10,000-page build took 17 s instead of 26 s
 * (docs/decisions/219-snapshot-renders-without-a-socket.md).
 */
export async function renderPage(
  handler: AstroHandler,
  path: string,
  context: { host: string; locals: FrontLocals },
): Promise<RenderedPage> {
  const request = snapshotRequest(path, context.host);
  const response = new KeptResponse();
  await renderFor(request, () => handler(request, response as unknown as ServerResponse, undefined, context.locals));
  await response.ended;
  return response.page();
}
