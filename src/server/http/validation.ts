import type { Context } from 'hono';
import type { z } from 'zod';
import { badRequest, invalid, notFound } from './errors.ts';

/** Turns zod issues into the spec's errors map, keyed by the field name inside the payload wrapper. */
export function errorsFromIssues(issues: readonly z.core.$ZodIssue[], wrapper?: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (wrapper && path[0] === wrapper && path.length > 1) path.shift();
    const key = path.join('.') || wrapper || 'body';
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/** Reads and validates a JSON body: malformed JSON → 400, invalid values → 422 with errors. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S, options: { wrapper?: string; emptyAs?: unknown } = {}): Promise<z.output<S>> {
  const text = await c.req.text();
  let value: unknown = options.emptyAs;
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest('Malformed JSON in request body.');
    }
  } else if (!('emptyAs' in options)) {
    throw badRequest('Request body is required.');
  }
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(errorsFromIssues(result.error.issues, options.wrapper));
  return result.data;
}

/** Validates a query string; unknown keys are ignored. */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const result = schema.safeParse(c.req.query());
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
