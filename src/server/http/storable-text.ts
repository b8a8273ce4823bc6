import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context.ts';
import { badRequest } from './errors.ts';

/**
 * PostgreSQL text cannot hold U+0000, and jsonb refuses a lone surrogate ('\ud800', which has no UTF-8
 * form): such text fails the query that meets it, and the call would answer 500 after earlier statements
 * of the same call may already have written. So it is refused at the edge, before any handler runs: here
 * for the URL (path parameters and query strings; a lone surrogate cannot be percent-decoded there), in
 * readJson for bodies.
 * Headers need no check: Node's HTTP parser answers 400 to a NUL in a header, `Headers` refuses one for
 * in-process calls, and the front drops cookie values with control characters (lib/cookies.ts) before
 * they become headers. Other control characters are valid text and are left to each field's rules.
 */
export const NUL_MESSAGE = 'The request contains a NUL character, which is not allowed.';

const NUL_IN_URL = /%00|\u0000/i;

/** 400 for a NUL anywhere in the URL, encoded or not. */
export const refuseNulInUrl = createMiddleware<AppEnv>(async (c, next) => {
  if (NUL_IN_URL.test(c.req.url)) throw badRequest(NUL_MESSAGE);
  await next();
});

const storable = (text: string) => !text.includes('\u0000') && text.isWellFormed();

/** The path of the first string (or object key) in a parsed JSON value that the database cannot store, or null. */
export function findUnstorableText(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return storable(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!storable(key)) return [...path, key];
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
