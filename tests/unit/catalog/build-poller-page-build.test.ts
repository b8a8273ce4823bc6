// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest';
import { installBuildPoller, readPageBuildId } from '../../../src/scripts/build-poller.ts';

/** The navigation entry of a page the front served from build `id` (its `Server-Timing: build;desc=…`). */
const servedFrom = (id: string) =>
  [
    {
      serverTiming: [
        { name: 'total', description: '' },
        { name: 'build', description: id },
      ],
    },
  ] as unknown as PerformanceEntry[];

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
  vi.spyOn(performance, 'getEntriesByType').mockReturnValue(servedFrom('b1'));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url.startsWith('/builds/latest.json?')
        ? Response.json({ id: 'b2', timestamp: 1 })
        : new Response('', { status: 404 }),
    ),
  );
  installBuildPoller();
  document.dispatchEvent(new Event('visibilitychange'));
  await vi.waitFor(() => expect(document.documentElement.dataset.buildOutdated).toBe('b2'));
});
