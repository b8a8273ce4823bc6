// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { iconUrl, loadIcon, mountIcon, mountIcons } from '../../../src/lib/icon-loader.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>';

/** A fetch that never answers, as a stalled network does; it ends only when its signal aborts. */
function neverAnswers(): typeof fetch {
  return vi.fn(
    (_url: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)),
      ),
  );
}

function iconElement(name: string): HTMLElement {
  const span = document.createElement('span');
  span.className = 'icon';
  span.dataset.icon = name;
  document.body.append(span);
  return span;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.replaceChildren();
});

test('an icon that does not arrive is given up after 5 s and its fallback shows', async () => {
  const fetch = neverAnswers();
  vi.stubGlobal('fetch', fetch);
  const span = iconElement('stalled-a');
  const mounted = mountIcon(span);
  expect(fetch).toHaveBeenCalledWith(
    iconUrl('stalled-a'),
    expect.objectContaining({ signal: expect.any(AbortSignal) }),
  );
  await vi.advanceTimersByTimeAsync(4_999);
  expect(span.dataset.iconState).toBeUndefined();
  await vi.advanceTimersByTimeAsync(1);
  await mounted;
  expect(span.dataset.iconState).toBe('fallback');
  expect(span.style.getPropertyValue('--icon')).toBe('');
});

test('a loaded icon is drawn from the file, and every element naming it shares one request', async () => {
  const fetch = vi.fn(async () => new Response(SVG, { headers: { 'content-type': 'image/svg+xml' } }));
  vi.stubGlobal('fetch', fetch);
  const header = iconElement('shared-b');
  const toast = iconElement('shared-b');
  mountIcons(document);
  await vi.advanceTimersByTimeAsync(0);
  await mountIcon(toast);
  expect(fetch).toHaveBeenCalledOnce();
  for (const span of [header, toast]) {
    expect(span.dataset.iconState).toBe('loaded');
    expect(span.style.getPropertyValue('--icon')).toMatch(/^url\("blob:/);
  }
});

test('a missing icon file or a failed request shows the fallback at once, without waiting 5 s', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('not found', { status: 404 })),
  );
  const missing = iconElement('missing-c');
  await mountIcon(missing);
  expect(missing.dataset.iconState).toBe('fallback');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
  );
  await expect(loadIcon('offline-d')).resolves.toBeNull();
});
