// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest';
import { installBuildPoller, readPageBuildId } from '../../../src/scripts/build-poller.ts';
import { servedFrom, stubBuilds } from './fixtures/build-poller.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

test("the page's build is the one its answer's Server-Timing names, and none without it", () => {
  expect(readPageBuildId(servedFrom('b7'))).toBe('b7');
  expect(readPageBuildId([{ serverTiming: [] }] as unknown as PerformanceEntry[])).toBeNull();
  expect(readPageBuildId([])).toBeNull();
});

test('a page served from a build before the live one is outdated at the first poll', async () => {
  stubBuilds('b1', () => 'b2');
  installBuildPoller();
  document.dispatchEvent(new Event('visibilitychange'));
  await vi.waitFor(() => expect(document.documentElement.dataset.buildOutdated).toBe('b2'));
});
