/**
 * Notices a new build (spec §4, §7): polls `builds/latest.json?{timestamp}` and, once the id
 * differs from the build this page came from, makes sure the next navigation loads the new
 * build. Every navigation of these pages is a full load and documents are served
 * `max-age=0, must-revalidate` (prefetches go through the HTTP cache, see preload-queue.ts), so
 * what remains is the back/forward cache: a restored outdated page reloads. The preload queue
 * stops, so nothing more is fetched for the old build.
 */
import type { PreloadQueue } from './preload-queue.ts';

export type LatestBuild = {
  id: string;
  timestamp: number;
};

export const POLL_INTERVAL_MS = 60_000;

/** `builds/latest.json` with the timestamp query that keeps caches out of the answer. */
export function latestBuildUrl(now: number, base = '/'): string {
  return `${base}builds/latest.json?${now}`;
}

/** Reads a `latest.json` body; anything without a string id is no answer. */
export function parseLatestBuild(body: unknown): LatestBuild | null {
  if (!body || typeof body !== 'object') return null;
  const { id, timestamp } = body as { id?: unknown; timestamp?: unknown };
  if (typeof id !== 'string' || id === '') return null;
  return { id, timestamp: typeof timestamp === 'number' ? timestamp : 0 };
}

export type PollerState = {
  /** The build this page belongs to; null until known (on-demand pages carry none). */
  pageBuildId: string | null;
  changed: boolean;
};

/**
 * The poller's decision: the first answer becomes the page's build when the page did not say;
 * a later, different id marks the page outdated (and it stays outdated).
 */
export function nextPollerState(state: PollerState, latest: LatestBuild | null): PollerState {
  if (!latest || state.changed) return state;
  if (state.pageBuildId === null) return { pageBuildId: latest.id, changed: false };
  return { pageBuildId: state.pageBuildId, changed: latest.id !== state.pageBuildId };
}

/**
 * The build the page was served from: the front's `Server-Timing: build;desc="<id>"`, which the page's
 * bytes do not carry (docs/decisions/211-incremental-builds.md). Null when not told (no build, or a
 * browser that hides Server-Timing outside secure contexts): the first poll's answer is taken then.
 */
export function readPageBuildId(
  entries: readonly PerformanceEntry[] = performance.getEntriesByType('navigation'),
): string | null {
  const timings = (entries[0] as PerformanceNavigationTiming | undefined)?.serverTiming;
  return timings?.find((timing) => timing.name === 'build')?.description || null;
}

async function fetchLatest(): Promise<LatestBuild | null> {
  try {
    const response = await fetch(latestBuildUrl(Date.now()), { cache: 'no-store' });
    if (!response.ok) return null; // no build yet (dev, on-demand only): nothing to compare
    return parseLatestBuild(await response.json());
  } catch {
    return null;
  }
}

/** Starts polling; `queue` is the page's preload queue, stopped once the build changed. */
export function installBuildPoller(queue?: PreloadQueue): void {
  let state: PollerState = { pageBuildId: readPageBuildId(), changed: false };

  const onOutdated = (latest: LatestBuild) => {
    queue?.stop();
    // Visible to tests and tools; nothing styles it.
    document.documentElement.dataset.buildOutdated = latest.id;
    // Spec §7: the new build's meta is fetched; a failure is only logged.
    fetch(`/builds/meta/${encodeURIComponent(latest.id)}.json`).catch((error: unknown) => {
      console.warn('build meta unavailable', error);
    });
  };

  // The build the islands last heard of; every later publish is announced as LIVE_BUILD_EVENT of
  // lib/catalog/live-payload.ts. Its name is written out here: importing the constant would give the
  // store front and shop (5 KB of script) a chunk of their own (tests/unit/catalog/build-poller-announce.test.ts
  // checks the two agree).
  let announced: string | null = null;
  const check = async () => {
    const latest = await fetchLatest();
    const before = state.changed;
    state = nextPollerState(state, latest);
    if (!before && state.changed && latest) onOutdated(latest);
    if (latest && latest.id !== (announced ?? state.pageBuildId)) {
      announced = latest.id;
      window.dispatchEvent(new CustomEvent('storefront:live-build', { detail: { id: latest.id } }));
    }
    return state.changed;
  };

  // A page restored from the back/forward cache skips the server: reload it when outdated.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    if (state.changed) location.reload();
    else void check().then((changed) => changed && location.reload());
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void check();
  });
  setInterval(() => {
    if (document.visibilityState === 'visible') void check();
  }, POLL_INTERVAL_MS);
  const first = () => void check();
  if ('requestIdleCallback' in window) requestIdleCallback(first, { timeout: 3000 });
  else setTimeout(first, 1000);
}
