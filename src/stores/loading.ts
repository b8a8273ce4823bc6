/** Loading flags: the store fetch (spec §4 step 3) drives the page overlay; the load-error flag. */
import { atom } from 'nanostores';

/** On while the store is fetched; the full-page loading overlay shows while it is on. */
export const $storeLoading = atom(false);

/** The load-error message after an unexpected store-load failure ('Unable Fetch Store'), else null. */
export const $loadError = atom<string | null>(null);
