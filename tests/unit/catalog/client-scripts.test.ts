import { describe, expect, test, vi } from 'vitest';
import { latestBuildUrl, nextPollerState, parseLatestBuild } from '../../../src/scripts/build-poller.ts';
import {
  claimReload,
  installChunkReload,
  isChunkLoadError,
  recoverFromFailedImport,
  RELOAD_GUARD_MS,
} from '../../../src/scripts/chunk-reload.ts';
import { createPreloadQueue, isPreloadable } from '../../../src/scripts/preload-queue.ts';

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

describe('build poller', () => {
  test('asks for latest.json with a timestamp query', () => {
    expect(latestBuildUrl(1700000000000)).toBe('/builds/latest.json?1700000000000');
  });

  test('reads only answers that carry a build id', () => {
    expect(parseLatestBuild({ id: 'b1', timestamp: 5 })).toEqual({ id: 'b1', timestamp: 5 });
    expect(parseLatestBuild({ id: '' })).toBeNull();
    expect(parseLatestBuild('<html>')).toBeNull();
    expect(parseLatestBuild(null)).toBeNull();
  });

  test('a page built as b1 is outdated once latest.json names b2, and stays outdated', () => {
    let state = nextPollerState({ pageBuildId: 'b1', changed: false }, { id: 'b1', timestamp: 1 });
    expect(state.changed).toBe(false);
    state = nextPollerState(state, { id: 'b2', timestamp: 2 });
    expect(state).toEqual({ pageBuildId: 'b1', changed: true });
    expect(nextPollerState(state, { id: 'b1', timestamp: 3 }).changed).toBe(true);
  });

  test('a page that names no build takes the first answer as its own', () => {
    const state = nextPollerState({ pageBuildId: null, changed: false }, { id: 'b1', timestamp: 1 });
    expect(state).toEqual({ pageBuildId: 'b1', changed: false });
    expect(nextPollerState(state, { id: 'b2', timestamp: 2 }).changed).toBe(true);
  });

  test('a failed poll changes nothing', () => {
    const state = { pageBuildId: 'b1', changed: false };
    expect(nextPollerState(state, null)).toBe(state);
  });
});

describe('chunk-load reload guard', () => {
  test('reloads a path at most once per 10 seconds', () => {
    const storage = memoryStorage();
    expect(claimReload(storage, '/acme/product/1', 1_000)).toBe(true);
    expect(claimReload(storage, '/acme/product/1', 1_000 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(claimReload(storage, '/acme/product/1', 1_000 + RELOAD_GUARD_MS)).toBe(true);
  });

  test('each path has its own guard', () => {
    const storage = memoryStorage();
    expect(claimReload(storage, '/acme/product/1', 1_000)).toBe(true);
    expect(claimReload(storage, '/acme/shop', 1_001)).toBe(true);
  });

  /** What installChunkReload uses of a window. */
  function fakeWindow(pathname: string) {
    const reload = vi.fn();
    const win = Object.assign(new EventTarget(), { sessionStorage: memoryStorage(), location: { pathname, reload } });
    installChunkReload(win as unknown as Window);
    return { win, reload };
  }
  /** Astro's island runtime reports a failed hydration like this (astro/dist/runtime/server/astro-island.js). */
  const hydrationError = (error: unknown) =>
    new CustomEvent('astro:hydration-error', {
      cancelable: true,
      detail: { error, componentUrl: '/_astro/CartView.abc.js' },
    });

  test('an island whose code cannot be imported reloads the page once; the next failure is left to Astro to log', () => {
    const { win, reload } = fakeWindow('/acme/cart');
    const gone = new TypeError(
      'Failed to fetch dynamically imported module: http://x/_astro/CartView.abc.js?astro-retry=1',
    );
    const first = hydrationError(gone);
    win.dispatchEvent(first);
    expect(reload).toHaveBeenCalledOnce();
    expect(first.defaultPrevented).toBe(true);
    const second = hydrationError(gone);
    win.dispatchEvent(second);
    expect(reload).toHaveBeenCalledOnce();
    expect(second.defaultPrevented).toBe(false);
  });

  test('an island that fails for another reason (a render error) does not reload', () => {
    const { win, reload } = fakeWindow('/acme/cart');
    win.dispatchEvent(hydrationError(new Error('Invalid component export path: x')));
    expect(reload).not.toHaveBeenCalled();
  });

  // A page script may import when the browser is idle, before the shell's script has installed the
  // listeners: its own catch must reload by itself.
  test('a page script’s failed import reloads once without the listeners, then is thrown on', () => {
    const reload = vi.fn();
    const win = { sessionStorage: memoryStorage(), location: { pathname: '/acme/product/1', reload } };
    const gone = new TypeError('Failed to fetch dynamically imported module: http://x/_astro/add-to-cart.abc.js');
    recoverFromFailedImport(gone, win as unknown as Window);
    expect(reload).toHaveBeenCalledOnce();
    expect(() => recoverFromFailedImport(gone, win as unknown as Window)).toThrow(gone);
    expect(reload).toHaveBeenCalledOnce();
    const bug = new Error('Cannot read properties of null');
    expect(() => recoverFromFailedImport(bug, win as unknown as Window)).toThrow(bug);
  });

  test('without usable storage it does not reload, so it cannot loop', () => {
    const broken = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(claimReload(broken, '/acme', 1)).toBe(false);
  });

  test('recognises the browsers’ dynamic-import failures and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /_astro/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Cart failed'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});

describe('preload queue', () => {
  test('keeps at most 4 preloads pending and starts the next when one settles', async () => {
    const resolvers: (() => void)[] = [];
    const started: string[] = [];
    const queue = createPreloadQueue((url) => {
      started.push(url);
      return new Promise<void>((resolve) => resolvers.push(resolve));
    });
    for (let i = 1; i <= 6; i++) queue.enqueue(`/acme/product/${i}`);
    await Promise.resolve();
    await Promise.resolve();
    expect(queue.pending()).toBe(4);
    expect(queue.waiting()).toBe(2);
    resolvers[0]!();
    await new Promise((r) => setTimeout(r, 0));
    expect(queue.pending()).toBe(4);
    expect(started).toHaveLength(5);
    expect(started[4]).toBe('/acme/product/5');
  });

  test('never preloads the same URL twice, and a failed preload frees its slot', async () => {
    const started: string[] = [];
    const queue = createPreloadQueue(async (url) => {
      started.push(url);
      throw new Error('offline');
    });
    queue.enqueue('/acme/shop');
    queue.enqueue('/acme/shop');
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual(['/acme/shop']);
    expect(queue.pending()).toBe(0);
  });

  test('a stopped queue drops waiting work and refuses more', async () => {
    const started: string[] = [];
    const queue = createPreloadQueue((url) => {
      started.push(url);
      return new Promise(() => undefined);
    }, 1);
    queue.enqueue('/a');
    queue.enqueue('/b');
    queue.stop();
    queue.enqueue('/c');
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual(['/a']);
    expect(queue.waiting()).toBe(0);
  });

  test('prefetches only same-site catalog pages, never per-shopper pages', () => {
    const here = new URL('http://localhost/acme');
    const ok = (href: string) => isPreloadable(new URL(href, here), here);
    expect(ok('/acme/product/1')).toBe(true);
    expect(ok('/acme/shop?page=2')).toBe(true);
    expect(ok('/acme/cart')).toBe(false);
    expect(ok('/acme/checkout')).toBe(false);
    expect(ok('/acme/order-confirmation/x')).toBe(false);
    expect(ok('/acme/sitemap.xml')).toBe(false);
    expect(ok('https://example.com/acme/shop')).toBe(false);
    expect(ok('/acme')).toBe(false);
  });
});
