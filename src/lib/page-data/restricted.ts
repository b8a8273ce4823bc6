import { isApiError } from '../api-error.ts';
import { getStore, getStoreByDomain, type Requester } from '../api-client/index.ts';

/**
 * The name the restricted-access page shows: the store's refusal carries its title (docs/api.md,
 * "Errors"). Null when the store is unknown or the API cannot be reached: the page then says "this store".
 */
export async function restrictedStoreTitle(
  request: Requester,
  lookup: { slug: string | null; customDomain: string | null },
): Promise<string | null> {
  if (!lookup.slug && !lookup.customDomain) return null;
  try {
    const store = lookup.customDomain
      ? await getStoreByDomain(request, lookup.customDomain)
      : await getStore(request, lookup.slug ?? '');
    return store.data.attributes.title;
  } catch (error) {
    return isApiError(error) ? (error.body?.store?.title ?? null) : null;
  }
}
