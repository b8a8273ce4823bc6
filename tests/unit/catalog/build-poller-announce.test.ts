// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest';
import { LIVE_BUILD_EVENT } from '../../../src/lib/catalog/live-payload.ts';
import { installBuildPoller } from '../../../src/scripts/build-poller.ts';
import { stubBuilds } from './fixtures/build-poller.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

test('each publish is announced once to the islands when the tab is viewed again', async () => {
  let live = 'b1';
  stubBuilds('b1', () => live);
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
