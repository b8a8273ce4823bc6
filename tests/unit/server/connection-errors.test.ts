import { describe, expect, test } from 'vitest';
import { isConnectionError, isRetryableConflict } from '../../../src/server/http/errors.ts';

describe('isConnectionError: a lost database is the service’s fault (503), never the client’s', () => {
  test.each([
    ['refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    [
      'admin shutdown',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['connection exception class', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['terminated', new Error('Connection terminated unexpectedly')],
    // pg throws this on the rollback that follows a connection that died mid-transaction.
    ['not queryable', new Error('Client has encountered a connection error and is not queryable')],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['wrapped', new Error('finalize failed', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) })],
  ])('%s', (_name, error) => {
    expect(isConnectionError(error)).toBe(true);
  });

  test('query errors are not connection errors', () => {
    expect(isConnectionError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isConnectionError(new Error('boom'))).toBe(false);
  });

  test('deadlocks and serialization failures are retryable conflicts', () => {
    expect(isRetryableConflict(Object.assign(new Error('deadlock'), { code: '40P01' }))).toBe(true);
    expect(isRetryableConflict(Object.assign(new Error('serialize'), { code: '40001' }))).toBe(true);
    expect(isRetryableConflict(Object.assign(new Error('dup'), { code: '23505' }))).toBe(false);
  });
});
