import { describe, expect, test } from 'vitest';
import { ApiError, NetworkError } from '../../../src/lib/api-error.ts';
import {
  notificationFor,
  pageNotFoundUnmatched,
  pageNotFoundValidate,
  unableToGetStoreReport,
} from '../../../src/lib/error-catalogue.ts';

describe('notifications (spec §8)', () => {
  test("422 with an errors map: 'Validation error occurred' and the first message of the first field", () => {
    const error = new ApiError(422, {
      message: 'Invalid',
      errors: { code: ['Gift card not found.', 'other'], email: ['x'] },
    });
    expect(notificationFor(error)).toEqual({ title: 'Validation error occurred', message: 'Gift card not found.' });
  });

  test('422 without an errors map: the same title and the message with a period', () => {
    expect(notificationFor(new ApiError(422, { message: 'Gift card has no balance' }))).toEqual({
      title: 'Validation error occurred',
      message: 'Gift card has no balance.',
    });
  });

  test("another error with a message: 'Error' and the message with a period", () => {
    expect(notificationFor(new ApiError(404, { message: 'Record not found' }))).toEqual({
      title: 'Error',
      message: 'Record not found.',
    });
  });

  test('a message that already ends a sentence is not given a second period', () => {
    expect(
      notificationFor(new ApiError(409, { message: 'The store has restricted access. Please contact Admin.' })).message,
    ).toBe('The store has restricted access. Please contact Admin.');
  });

  test.each([
    ['an answer without a body', new ApiError(500, null)],
    ['no answer', new NetworkError('offline')],
    ['a plain error', new Error('boom')],
    ['an empty message', new ApiError(400, { message: '' })],
  ])("%s: 'Sorry an unexpected error occurred, please try again.'", (_name, error) => {
    expect(notificationFor(error)).toEqual({
      title: 'Error',
      message: 'Sorry an unexpected error occurred, please try again.',
    });
  });
});

// The fixed messages are checked where they are shown (store-check, stores, e2e shell); these are built from their input.
test('store-load and page messages name what failed, word for word', () => {
  expect(unableToGetStoreReport('acme')).toBe('Unable to get store: acme');
  expect(pageNotFoundValidate('/acme/order/x')).toBe('Page Not Found: /acme/order/x');
  expect(pageNotFoundUnmatched('/nope')).toBe('Page not found: /nope');
});
