import { useEffect } from 'react';
import { $storeSlug, setStore } from '../stores/store.ts';

/**
 * The cart and checkout actions read the slug from $store; when an island boots before the shell's
 * script has saved the store, it saves a stand-in with the page's slug (the shell's later save
 * replaces it).
 */
export function useStoreContext(slug: string, linkBase: string): void {
  useEffect(() => {
    if ($storeSlug.get() === null)
      setStore({ title: '', slug, faviconImage: null, allowedListsPresent: false, description: null }, linkBase);
  }, [slug, linkBase]);
}
