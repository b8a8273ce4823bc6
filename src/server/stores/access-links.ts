/**
 * Links that let their bearer into a restricted store: its home page with `uuid` (an allowed recipient) or
 * `token` (a domain token), the query parameters the storefront reads on entry (spec §2, §4): it keeps them
 * in cookies and drops them from the address through /refresh.
 */
import { normalizeHost } from '../../lib/custom-domain.ts';
import { storeUrl } from '../../lib/store-links.ts';

type LinkedStore = { slug: string; custom_domain: string | null };

/** Whether a request that named `customDomain` came from the store's own domain. */
export const askedOnOwnDomain = (store: LinkedStore, customDomain: string | undefined) =>
  Boolean(customDomain && store.custom_domain === normalizeHost(customDomain));

/**
 * The store's home with the access parameter: on its own domain when `onOwnDomain` (and it has one), else
 * under `/{slug}` on the site.
 */
export function accessLink(
  store: LinkedStore,
  onOwnDomain: boolean,
  siteUrl: string,
  access: { uuid: string } | { token: string },
): URL {
  const link = storeUrl({ slug: store.slug, customDomain: onOwnDomain ? store.custom_domain : null }, '/', siteUrl);
  for (const [name, value] of Object.entries(access)) link.searchParams.set(name, value);
  return link;
}
