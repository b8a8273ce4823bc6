/**
 * Prefetches same-store catalog pages on hover, focus or when a link scrolls into view, with at
 * most 4 preloads pending at once (spec §9); the rest wait their turn.
 */

export const PRELOAD_LIMIT = 4;

export type PreloadQueue = {
  /** Queues `url` unless it was already queued, is loading or loaded. */
  enqueue(url: string): void;
  /** Preloads currently in flight. */
  pending(): number;
  /** Waiting (not yet started) URLs. */
  waiting(): number;
  /** Forgets everything and refuses new work (a new build makes prefetched pages stale). */
  stop(): void;
};

/** A queue over any `load(url)` that settles when the preload is done. */
export function createPreloadQueue(load: (url: string) => Promise<unknown>, limit = PRELOAD_LIMIT): PreloadQueue {
  const seen = new Set<string>();
  const queue: string[] = [];
  let inFlight = 0;
  let stopped = false;

  const pump = () => {
    while (!stopped && inFlight < limit && queue.length > 0) {
      const url = queue.shift()!;
      inFlight++;
      Promise.resolve()
        .then(() => load(url))
        .catch(() => undefined) // a failed prefetch only costs the prefetch
        .finally(() => {
          inFlight--;
          pump();
        });
    }
  };

  return {
    enqueue(url) {
      if (stopped || seen.has(url)) return;
      seen.add(url);
      queue.push(url);
      pump();
    },
    pending: () => inFlight,
    waiting: () => queue.length,
    stop() {
      stopped = true;
      queue.length = 0;
    },
  };
}

// Per-shopper pages are never prefetched: they are rendered per request and change with the cart.
const NOT_PRELOADED = /\/(cart|checkout|order|order-confirmation|refresh|restricted|api)(\/|$)/;

/** True when `href` is a catalog page of this site worth prefetching from `current`. */
export function isPreloadable(href: URL, current: URL): boolean {
  if (href.origin !== current.origin) return false;
  if (href.pathname === current.pathname && href.search === current.search) return false;
  if (href.hash && href.pathname === current.pathname) return false;
  if (/\.[a-z0-9]+$/i.test(href.pathname)) return false; // files, not pages
  return !NOT_PRELOADED.test(href.pathname);
}

/**
 * A low-priority fetch puts the page into the HTTP cache under the server's own caching rules.
 * Not `<link rel=prefetch>`: Chrome reuses those for 5 minutes whatever the headers say, so a
 * page prefetched before a rebuild could be shown after it.
 */
function prefetchDocument(url: string): Promise<unknown> {
  // Reading the body lets the whole page reach the cache; the pending count covers the download.
  return fetch(url, { credentials: 'same-origin', priority: 'low' }).then((r) => r.arrayBuffer());
}

/** Wires prefetching on hover, focus and touch, and for `[data-preload-viewport]` links in view. */
export function installPreloadQueue(): PreloadQueue {
  const queue = createPreloadQueue(prefetchDocument);
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData) queue.stop();
  const here = new URL(location.href);
  const consider = (target: EventTarget | null) => {
    const anchor = target instanceof Element ? target.closest<HTMLAnchorElement>('a[href]') : null;
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const url = new URL(anchor.href, here);
    url.hash = '';
    if (isPreloadable(url, here)) queue.enqueue(url.href);
  };
  for (const type of ['pointerover', 'focusin', 'touchstart']) {
    document.addEventListener(type, (event) => consider(event.target), { passive: true });
  }
  // Only marked links (a hero button, "Next"): a 48-card grid must not prefetch 48 pages on load.
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting) consider(entry.target);
  });
  document.querySelectorAll('a[data-preload-viewport]').forEach((a) => observer.observe(a));
  return queue;
}
