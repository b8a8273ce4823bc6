/** Retry rules of spec §7 for the API client. */

/** The only statuses that are retried. */
export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];

const NO_RETRY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** How many retries a method gets: none for POST, PUT, PATCH and DELETE (not idempotent), one for the rest. */
export function retriesFor(method: string): number {
  return NO_RETRY_METHODS.has(method.toUpperCase()) ? 0 : 1;
}

/** Whether attempt number `attempt` (0 = the first request) that answered `status` is tried again. */
export function shouldRetry(method: string, status: number, attempt: number): boolean {
  return RETRY_STATUSES.includes(status) && attempt < retriesFor(method);
}
