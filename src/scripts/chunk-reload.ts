/**
 * A failed chunk load (a deploy removed the hashed file this page points at) reloads the page,
 * at most once per path per 10 s (spec §4, §9), so a chunk that is really gone cannot loop.
 */

export const RELOAD_GUARD_MS = 10_000;
const KEY_PREFIX = 'chunk-reload:';

/** The part of `Storage` the guard needs (sessionStorage in the browser, a Map in tests). */
export type GuardStorage = {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
};

/**
 * True when a reload for `path` is allowed now; records the reload time when it is.
 * An unreadable or full storage allows no reload: without the guard a loop could not be stopped.
 */
export function claimReload(storage: GuardStorage, path: string, now: number): boolean {
  try {
    const last = Number(storage.getItem(KEY_PREFIX + path));
    if (Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_MS) return false;
    storage.setItem(KEY_PREFIX + path, String(now));
    return true;
  } catch {
    return false;
  }
}

const CHUNK_ERROR =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported|Failed to load module script|ChunkLoadError/i;

/** True for the errors browsers give when a dynamic import or module preload fails. */
export function isChunkLoadError(reason: unknown): boolean {
  if (reason == null) return false;
  const message = typeof reason === 'string' ? reason : (reason as { message?: unknown }).message;
  return typeof message === 'string' && CHUNK_ERROR.test(message);
}

/**
 * Astro's island runtime catches a failed import of an island's code (after one retry of its own)
 * and reports it with this event, bubbling from the `<astro-island>`; left alone it only logs, and
 * the island stays on its server-rendered placeholder ("Loading your cart…").
 */
export const HYDRATION_ERROR_EVENT = 'astro:hydration-error';

/** Reloads the page when the guard allows it; false when it refused. */
function reloadOnce(win: Window): boolean {
  if (!claimReload(win.sessionStorage, win.location.pathname, Date.now())) return false;
  win.location.reload();
  return true;
}

/**
 * For a script's own `import()`: a failed chunk load reloads the page (once per guard window);
 * any other error, or one the guard refuses, is thrown on to its default handling. Catching at the
 * import does not depend on the listeners below being installed yet: a page script may import
 * before the shell's script has run.
 */
export function recoverFromFailedImport(error: unknown, win: Window = window): void {
  if (isChunkLoadError(error) && reloadOnce(win)) return;
  throw error;
}

/**
 * Installs the listeners: Vite's `vite:preloadError`, unhandled dynamic-import rejections and
 * Astro's island hydration errors. A reload cancels the event (nothing to log); one the guard
 * refuses is left to its default handling.
 */
export function installChunkReload(win: Window = window): void {
  const reload = (event: Event) => {
    if (reloadOnce(win)) event.preventDefault();
  };
  win.addEventListener('vite:preloadError', reload);
  win.addEventListener('unhandledrejection', (event) => {
    if (isChunkLoadError(event.reason)) reload(event);
  });
  win.addEventListener(HYDRATION_ERROR_EVENT, (event) => {
    if (isChunkLoadError((event as CustomEvent<{ error?: unknown } | null>).detail?.error)) reload(event);
  });
}
