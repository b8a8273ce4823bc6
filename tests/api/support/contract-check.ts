/**
 * Every answer an API test gets is checked against the contract (src/lib/contract/operations.ts):
 * the status must be one the operation documents, and the body must match that status's schema
 * (the Error body for error statuses). A mismatch fails the test that got the answer.
 */
import { errorBody } from '../../../src/lib/contract/answers.ts';
import { findOperation } from '../../../src/lib/contract/operations.ts';

/** What is wrong with an answer, or null when it is as documented. */
export function contractProblem(method: string, pathAndQuery: string, status: number, text: string): string | null {
  const upper = method.toUpperCase();
  if (upper === 'OPTIONS' || upper === 'HEAD') return null;
  const path = pathAndQuery.split('?')[0]!;
  const operation = findOperation(upper, path);
  const where = `${upper} ${path} answered ${status}`;
  let schema = operation?.answers[status];
  if (schema === undefined) {
    const documentedError = operation ? operation.errors.includes(status) : status === 404;
    if (!documentedError) return `${where}, which the contract does not document`;
    schema = errorBody;
  }
  if (schema === null) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  const result = schema.safeParse(body);
  return result.success ? null : `${where} with a body the contract does not describe: ${result.error.message}`;
}
