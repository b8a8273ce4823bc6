import { describe, expect, test } from 'vitest';
import { RETRY_STATUSES, retriesFor, shouldRetry } from '../../../src/lib/retry-policy.ts';

test('only 408, 409, 425, 429, 500, 502, 503 and 504 are retried', () => {
  expect([...RETRY_STATUSES]).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
  for (let status = 400; status < 600; status++) {
    expect(shouldRetry('GET', status, 0)).toBe(RETRY_STATUSES.includes(status));
  }
});

describe('retries per method', () => {
  test.each(['POST', 'PUT', 'PATCH', 'DELETE', 'post'])('%s is never retried', (method) => {
    expect(retriesFor(method)).toBe(0);
    expect(shouldRetry(method, 503, 0)).toBe(false);
  });

  test.each(['GET', 'HEAD', 'OPTIONS'])('%s is retried once', (method) => {
    expect(retriesFor(method)).toBe(1);
    expect(shouldRetry(method, 503, 0)).toBe(true);
    expect(shouldRetry(method, 503, 1)).toBe(false);
  });
});
