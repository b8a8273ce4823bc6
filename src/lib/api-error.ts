import type { ErrorBody } from './contract/answers.ts';

/** The API answered with an error status; `body` is the spec's error body when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody | null;
  constructor(status: number, body: ErrorBody | null, options?: { cause?: unknown }) {
    super(body?.message ?? `API answered ${status}`, options);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** No answer at all (network down, DNS, aborted): status 0. */
export class NetworkError extends Error {
  readonly status = 0;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/** True for an error the API answered (status ≥ 400), as opposed to a missing answer. */
export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
