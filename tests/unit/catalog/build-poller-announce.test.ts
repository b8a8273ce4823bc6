// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest';
import { LIVE_BUILD_EVENT } from '../../../src/lib/catalog/live-payload.ts';
import { installBuildPoller } from '../../../src/scripts/build-poller.ts';

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

test('each publish is announced once to the islands when the tab is viewed again', async () => {
  vi.spyOn(performance, 'getEntriesByType').mockReturnValue(servedFrom('b1'));
  let live = 'b1';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url.startsWith('/builds/latest.json?')
        ? Response.json({ id: live, timestamp: 1 })
        : new Response('', { status: 404 }),
    ),
  );
  const heard: string[] = [];
  window.addEventListener(LIVE_BUILD_EVENT, (event) => heard.push((event as CustomEvent<{ id: string }>).detail.id));
  installBuildPoller();
  const view = () => document.dispatchEvent(new Event('visibilitychange'));

  view(); // still the page's own build: nothing to announce
  live = 'b2';
  view();
  await vi.waitFor(() => expect(heard).toEqual(['b2']));
  view(); // b2 again: already announced
  live = 'b3';
  view();
  await vi.waitFor(() => expect(heard).toEqual(['b2', 'b3']));
  expect(document.documentElement.dataset.buildOutdated).toBe('b2');
});
