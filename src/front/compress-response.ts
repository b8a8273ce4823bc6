import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants } from 'node:zlib';
import compression from 'compression';
import { MIN_COMPRESSED_BYTES, ON_DEMAND_COMPRESSION } from './static-files.ts';

type Middleware = ReturnType<typeof compression>;

/**
 * Compresses the HTML that Astro renders on demand (cart, checkout, order pages, restricted stores,
 * custom domains): Astro's handler writes it uncompressed (ADR 003). Static files are sent
 * pre-compressed by the front and never come here. Every write is flushed, so a streamed page's head
 * still reaches the browser first, at the front's levels (`ON_DEMAND_COMPRESSION`).
 */
const htmlCompression: Middleware = compression({
  threshold: MIN_COMPRESSED_BYTES,
  filter: (_req, res) => String(res.getHeader('content-type') ?? '').startsWith('text/html'),
  level: ON_DEMAND_COMPRESSION.gzipLevel,
  flush: constants.Z_SYNC_FLUSH,
  brotli: {
    params: { [constants.BROTLI_PARAM_QUALITY]: ON_DEMAND_COMPRESSION.brotliQuality },
    flush: constants.BROTLI_OPERATION_FLUSH,
  },
});

/** Runs `render` with its answer compressed when the browser accepts it and it is HTML worth compressing. */
export function compressHtmlAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  render: () => void | Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // The middleware is Express-typed but only uses node:http's request and response.
    htmlCompression(req as Parameters<Middleware>[0], res as Parameters<Middleware>[1], (error?: unknown) => {
      if (error) reject(error instanceof Error ? error : new Error('HTML compression failed', { cause: error }));
      else Promise.resolve(render()).then(resolve, reject);
    });
  });
}
