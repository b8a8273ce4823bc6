import type { TestApp } from './test-app.ts';

/**
 * Pins the API clock one second into a rate-limit window for the duration of `fn`, so a fixed
 * window never rolls over mid-test (a roll-over would rightly allow a second batch).
 */
export async function inOneWindow<T>(api: TestApp, fn: () => Promise<T>): Promise<T> {
  const windowMs = api.config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const pinned = new Date(Math.floor(Date.now() / windowMs) * windowMs + 1000);
  const original = api.clock.now;
  api.clock.now = () => pinned;
  try {
    return await fn();
  } finally {
    api.clock.now = original;
  }
}
