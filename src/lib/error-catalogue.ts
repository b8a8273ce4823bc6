/** The messages of spec §8, word for word, in one place. */
import { ApiError } from './api-error.ts';
import { MESSAGES } from './contract/messages.ts';

export { MESSAGES, pageNotFoundUnmatched, pageNotFoundValidate, unableToGetStoreReport } from './contract/messages.ts';

/**
 * Spec §8's notification titles. Here rather than in contract/messages.ts: only notifications show
 * them, and the store front's boot script, which carries messages.ts whole, never does.
 */
const NOTIFY_TITLE = {
  validation: 'Validation error occurred',
  error: 'Error',
} as const;

export type Notification = {
  title: string;
  message: string;
};

function withPeriod(message: string): string {
  // The spec appends a period; a message that already ends a sentence is not doubled.
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

/** The toast for a failed call (spec §8 "Notifications"). */
export function notificationFor(error: unknown): Notification {
  if (error instanceof ApiError && error.body) {
    const { message, errors } = error.body;
    if (error.status === 422) {
      const first = errors ? Object.values(errors).find((list) => Array.isArray(list) && list.length > 0) : undefined;
      if (first?.[0]) return { title: NOTIFY_TITLE.validation, message: first[0] };
      if (message) return { title: NOTIFY_TITLE.validation, message: withPeriod(message) };
    } else if (message) {
      return { title: NOTIFY_TITLE.error, message: withPeriod(message) };
    }
  }
  return { title: NOTIFY_TITLE.error, message: MESSAGES.unexpected };
}
