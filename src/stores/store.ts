/** The current store (spec §4 step 3) and where its links start. */
import { atom } from 'nanostores';
import type { StoreAttributes } from '../lib/contract/answers.ts';

/** The store being shown, or null on store-less pages. */
export const $store = atom<StoreAttributes | null>(null);

/** '/acme' for a slug store, '' on a custom domain (see lib/store-links.ts). */
export const $linkBase = atom<string>('');

/** The current store's slug, or null (kept by setStore; a plain atom keeps the boot script small). */
export const $storeSlug = atom<string | null>(null);

/** Saves the loaded store, its slug and link base. */
export function setStore(store: StoreAttributes | null, linkBase = store ? `/${store.slug}` : ''): void {
  $store.set(store);
  $storeSlug.set(store?.slug ?? null);
  $linkBase.set(linkBase);
}
