import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context.ts';

const TOO_LARGE = { message: 'The request body is too large.' };

/**
 * Hono's `bodyLimit`, asked only when the length is not known up front. Hono's own version reads
 * `c.req.raw.body` first, which makes the Node adapter build a whole web `Request` (and a web stream of
 * the body) for every call, GETs included: a tenth of the API's CPU time under load (docs/performance.md).
 * A declared `Content-Length` is checked here; chunked bodies are counted by Hono's middleware as before.
 */
export function limitBody(maxSize: number, options: { message?: string; except?: readonly RegExp[] } = {}) {
  const tooLarge = { message: options.message ?? TOO_LARGE.message };
  const streamed = bodyLimit({ maxSize, onError: (c) => c.json(tooLarge, 413) });
  return createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    if (options.except?.some((path) => path.test(c.req.path))) return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length, 10) > maxSize ? c.json(tooLarge, 413) : next();
    }
    return streamed(c, next);
  });
}
