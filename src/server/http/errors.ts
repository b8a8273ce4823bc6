import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody } from '../../lib/contract/answers.ts';
import { MESSAGES } from '../../lib/contract/messages.ts';

/** An expected failure with the spec's JSON body; thrown by handlers, answered by onError. */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;
  constructor(status: ContentfulStatusCode, body: ErrorBody, headers: Record<string, string> = {}) {
    super(body.message);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export const notFound = () => new HttpError(404, { message: MESSAGES.recordNotFound });
export const restricted = (store: { title: string }) =>
  new HttpError(422, { message: MESSAGES.restricted, store: { title: store.title } });
export const badRequest = (message: string) => new HttpError(400, { message });
export const conflict = (message: string) => new HttpError(409, { message });

/** 422 with an errors map; the message is the first field's first error (spec §8 shows exactly that). */
export function invalid(errors: Record<string, string[]>): HttpError {
  const first = Object.values(errors)[0]?.[0] ?? 'This field is not valid.';
  return new HttpError(422, { message: first, errors });
}

export const invalidField = (field: string, message: string) => invalid({ [field]: [message] });

// Connection-level failures (server down, restarting, pool exhausted) are the database's fault, not
// the client's: answer 503 so the storefront's retry policy (spec §7) tries again.
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

export function isConnectionError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
    const message = (e as { message?: unknown }).message;
    if (
      typeof message === 'string' &&
      /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect/i.test(
        message,
      )
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Deadlock or serialization failure: the transaction rolled back whole, so a retry is safe. */
export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

export type ErrorLogger = {
  error(obj: object, msg?: string): void;
};

/** The one place unexpected errors become answers. */
export function handleError(error: Error, c: Context, logger: ErrorLogger): Response {
  if (error instanceof HttpError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json(error.body, error.status);
  }
  if (isRetryableConflict(error)) {
    c.header('Retry-After', '1');
    return c.json({ message: 'Another request changed the same data. Please try again.' } satisfies ErrorBody, 409);
  }
  if (error.name === 'PaymentProviderError') {
    // The provider failed or timed out: nothing was written, every provider write carries an
    // idempotency key, so the shopper may simply try again.
    logger.error({ err: error, path: c.req.path }, 'payment provider failed');
    c.header('Retry-After', '2');
    return c.json(
      { message: 'The payment provider did not answer. Please try again in a moment.' } satisfies ErrorBody,
      502,
    );
  }
  if (isConnectionError(error) || error.name === 'RateLimitStoreError') {
    logger.error({ err: error, path: c.req.path }, 'database unavailable');
    c.header('Retry-After', '5');
    return c.json({ message: 'The service is temporarily unavailable. Please try again.' } satisfies ErrorBody, 503);
  }
  logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
  return c.json({ message: 'Sorry an unexpected error occurred, please try again.' } satisfies ErrorBody, 500);
}
