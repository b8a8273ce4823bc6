import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';

/** Answers smaller than this are not worth compressing (and most are redirects or errors). */
const MIN_BYTES = 1024;

function chosenEncoding(req: IncomingMessage): 'br' | 'gzip' | null {
  const accept = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accept)) return 'br';
  if (/\bgzip\b/.test(accept)) return 'gzip';
  return null;
}

/**
 * Compresses the HTML that Astro renders on demand (cart, checkout, order pages, restricted stores,
 * custom domains): the handler writes it uncompressed (stack-facts.md). Streaming is kept — each
 * chunk Astro writes is flushed through — so the head still reaches the browser first. Brotli at
 * quality 4 costs about as much CPU as gzip 6 and compresses better. Call before the handler writes.
 */
export function compressHtmlAnswer(req: IncomingMessage, res: ServerResponse): void {
  const encoding = chosenEncoding(req);
  if (!encoding || req.method === 'HEAD') return;

  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  let stream: BrotliCompress | Gzip | null = null;
  let decided = false;

  function decide(): void {
    if (decided) return;
    decided = true;
    try {
      choose();
    } finally {
      if (!res.headersSent) writeHead.call(res, res.statusCode);
    }
  }

  function choose(): void {
    const type = String(res.getHeader('content-type') ?? '');
    const length = Number(res.getHeader('content-length') ?? Number.NaN);
    if (res.statusCode !== 200 || !type.startsWith('text/html') || res.getHeader('content-encoding') || length < MIN_BYTES) return;
    res.removeHeader('content-length');
    res.setHeader('content-encoding', encoding!);
    const vary = String(res.getHeader('vary') ?? '');
    if (!/accept-encoding/i.test(vary)) res.setHeader('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    stream =
      encoding === 'br'
        ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 }, flush: constants.BROTLI_OPERATION_FLUSH })
        : createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH });
    const rawWrite = write as (chunk: Buffer) => boolean;
    const rawEnd = end as () => ServerResponse;
    stream.on('data', (chunk: Buffer) => rawWrite.call(res, chunk));
    stream.on('end', () => rawEnd.call(res));
    stream.on('error', (error) => res.destroy(error));
  }

  // Headers given to writeHead are kept on the response, so the decision sees them.
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    // After the decision (Node's implicit headers on a later write come here too) it is the real one.
    if (decided) return (writeHead as (...a: unknown[]) => ServerResponse).call(res, statusCode, ...rest);
    res.statusCode = statusCode;
    const headers = rest.find((arg) => typeof arg === 'object' && arg !== null) as OutgoingHttpHeaders | string[] | undefined;
    if (Array.isArray(headers)) for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
    else if (headers) for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    const message = rest.find((arg) => typeof arg === 'string') as string | undefined;
    if (message) res.statusMessage = message;
    // Headers go out with the first body bytes (Node sends them implicitly), once we know whether
    // the answer is worth compressing.
    return res;
  } as typeof res.writeHead;

  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    decide();
    if (!stream) return (write as (...args: unknown[]) => boolean).call(res, chunk, ...rest);
    const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    const encodingArg = rest.find((arg) => typeof arg === 'string') as BufferEncoding | undefined;
    return stream.write(typeof chunk === 'string' ? Buffer.from(chunk, encodingArg ?? 'utf8') : (chunk as Buffer), callback);
  } as typeof res.write;

  res.end = function (this: ServerResponse, ...args: unknown[]) {
    const [chunk] = args;
    const bodyless = res.statusCode === 204 || res.statusCode === 304;
    if (!decided && !bodyless && (chunk === undefined || typeof chunk === 'function') && res.getHeader('content-length') === undefined) {
      // Nothing was written: an empty answer, nothing to compress.
      res.setHeader('content-length', 0);
    }
    if (!decided && chunk !== undefined && typeof chunk !== 'function' && res.getHeader('content-length') === undefined) {
      res.setHeader('content-length', Buffer.byteLength(chunk as string | Buffer));
    }
    decide();
    if (!stream) return (end as (...a: unknown[]) => ServerResponse).apply(res, args);
    const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (callback) res.once('finish', callback);
    if (chunk !== undefined && typeof chunk !== 'function') stream.end(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    else stream.end();
    return res;
  } as typeof res.end;
}
