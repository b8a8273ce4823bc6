/**
 * Spec §4 in the browser, for pages served from a build snapshot: the same pure decision the
 * middleware uses. Loaded only when needed (an access link in the URL, or the cart call failed,
 * which is how a store that became restricted or was removed after the build shows itself).
 */
// By their own files, not the index: see src/stores/cart-core.ts.
import { browserRequester } from '../lib/api-client/requester.ts';
import { getStore, getStoreByDomain } from '../lib/api-client/stores.ts';
import { browserCookieJar } from '../lib/cookies.ts';
import { decideStoreLoading, fetchOutcome } from '../lib/store-loading.ts';
import { reportError } from '../lib/report.ts';
import { $loadError, $storeLoading } from '../stores/loading.ts';
import { setStore } from '../stores/store.ts';

/** Applies the decision for the current URL; false when it navigated away. */
export async function checkStore(customDomain: string | null): Promise<boolean> {
  const input = { path: location.pathname, search: location.search, customDomain };
  let decision = decideStoreLoading(input);
  if (decision.kind === 'fetch') {
    const { lookup } = decision;
    const request = browserRequester();
    $storeLoading.set(true);
    const outcome = await fetchOutcome(() =>
      lookup.by === 'slug' ? getStore(request, lookup.slug) : getStoreByDomain(request, lookup.domain),
    );
    $storeLoading.set(false);
    decision = decideStoreLoading({ ...input, outcome });
  }
  if (decision.kind === 'storeless' || decision.kind === 'fetch') return true;
  const jar = browserCookieJar();
  for (const cookie of decision.cookies) jar.set(cookie);
  if (decision.kind === 'render') {
    setStore(decision.store, decision.linkBase);
    return true;
  }
  if (decision.loadError) $loadError.set(decision.loadError);
  if (decision.report) reportError(decision.report);
  location.replace(decision.location);
  return false;
}
