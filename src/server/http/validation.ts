import type { Context } from 'hono';
import type { z } from 'zod';
import { FALLBACK_MESSAGE } from '../../lib/validation/rules.ts';
import { badRequest, HttpError, invalid, notFound } from './errors.ts';
import { findUnstorableText } from './storable-text.ts';

/** The errors-map key of a field: its path inside the payload wrapper, e.g. `zip` for `cart.zip`. */
function fieldKey(fieldPath: readonly PropertyKey[], wrapper?: string): string {
  const path = fieldPath.map(String);
  if (wrapper && path[0] === wrapper && path.length > 1) path.shift();
  return path.join('.') || wrapper || 'body';
}

/** Turns zod issues into the spec's errors map, keyed by the field name inside the payload wrapper. */
export function errorsFromIssues(issues: readonly z.core.$ZodIssue[], wrapper?: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[fieldKey(issue.path, wrapper)] ??= []).push(issue.message);
  return errors;
}

/** `application/json`, with parameters (charset) or as a `+json` type; anything else is not read. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

export const UNSUPPORTED_MEDIA_TYPE = 'Request bodies must be JSON (Content-Type: application/json).';

/**
 * Reads and validates a JSON body: a body that is not labelled JSON → 415 (a form or text/plain post
 * is never parsed; an empty body is accepted where `emptyAs` allows one), malformed JSON → 400, a NUL or a lone
 * surrogate in any string → 422 (storable-text.ts), invalid values → 422 with errors.
 */
export async function readJson<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { wrapper?: string; emptyAs?: unknown } = {},
): Promise<z.output<S>> {
  const text = await c.req.text();
  let value: unknown = options.emptyAs;
  if (text.trim() !== '') {
    if (!JSON_TYPE.test(c.req.header('content-type') ?? ''))
      throw new HttpError(415, { message: UNSUPPORTED_MEDIA_TYPE });
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest('Malformed JSON in request body.');
    }
    const unstorable = findUnstorableText(value);
    if (unstorable) throw invalid({ [fieldKey(unstorable, options.wrapper)]: [FALLBACK_MESSAGE] });
  } else if (!('emptyAs' in options)) {
    throw badRequest('Request body is required.');
  }
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(errorsFromIssues(result.error.issues, options.wrapper));
  return result.data;
}

/** Validates a query string; unknown keys are ignored, `repeated` keys are read as lists of all their values. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S, repeated: readonly string[] = []): z.output<S> {
  const query: Record<string, string | string[]> = c.req.query();
  for (const key of repeated) {
    const values = c.req.queries(key);
    if (values) query[key] = values;
  }
  const result = schema.safeParse(query);
  if (!result.success) throw invalid(errorsFromIssues(result.error.issues));
  return result.data;
}

const INT_ID = /^[1-9]\d{0,8}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A numeric record id from the path; anything else cannot name a record, so it is 404. */
export function intId(value: string | undefined): number {
  if (!value || !INT_ID.test(value)) throw notFound();
  return Number(value);
}

/** A uuid from the path, lower-cased; anything else is 404. */
export function uuidId(value: string | undefined): string {
  if (!value || !UUID.test(value)) throw notFound();
  return value.toLowerCase();
}

export const isUuid = (value: string) => UUID.test(value);
