/** Loading flags: the store fetch (spec §4 step 3), the load-error flag, and the page overlay. */
import { atom } from 'nanostores';

/** On while the store is fetched. */
export const $storeLoading = atom(false);

/** The load-error message after an unexpected store-load failure ('Unable Fetch Store'), else null. */
export const $loadError = atom<string | null>(null);

/** Count of running tasks that want the full-page overlay. */
export const $pendingTasks = atom(0);

/** True while the full-page loading overlay shows (store fetch or any running task). */
export const $loading = atom(false);

// Plain atoms and a listener instead of `computed`: the boot script of every page carries this file.
const sync = () => $loading.set($storeLoading.get() || $pendingTasks.get() > 0);
$storeLoading.listen(sync);
$pendingTasks.listen(sync);

/** Shows the overlay while `task` runs. */
export async function withLoading<T>(task: Promise<T> | (() => Promise<T>)): Promise<T> {
  $pendingTasks.set($pendingTasks.get() + 1);
  try {
    return await (typeof task === 'function' ? task() : task);
  } finally {
    $pendingTasks.set(Math.max(0, $pendingTasks.get() - 1));
  }
}
