import { linkBaseFor, storeHref } from '../../lib/store-links.ts';

/**
 * An absolute link into a store for mail: on the store's own domain when `ownDomain` is set and the
 * store has one (the site's scheme and port kept), otherwise under `/{slug}` on PUBLIC_SITE_URL.
 */
export function storeUrl(
  store: { slug: string; custom_domain: string | null },
  path: string,
  siteUrl: string,
  ownDomain: boolean,
): URL {
  const domain = ownDomain ? store.custom_domain : null;
  const url = new URL(storeHref(linkBaseFor(store.slug, domain), path), siteUrl);
  if (domain) url.hostname = domain;
  return url;
}
