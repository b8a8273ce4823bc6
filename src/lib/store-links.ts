/**
 * The one helper that builds store links. A store reached by slug has links under `/{slug}`;
 * a store on its own domain has unprefixed links (`linkBase` is then '').
 */

/** `'/acme'` for a slug store, `''` on a custom domain. */
export function linkBaseFor(slug: string, customDomain: string | null): string {
  return customDomain ? '' : `/${slug}`;
}

/** A store-relative path (`'/'`, `'/cart'`, `'/product/7'`) as a link: `storeHref('/acme', '/cart')` → `'/acme/cart'`. */
export function storeHref(linkBase: string, path = '/'): string {
  const p = path.startsWith('/') ? path : `/${path}`;
  if (!linkBase) return p;
  return p === '/' ? linkBase : `${linkBase}${p}`;
}

/**
 * An absolute URL into a store: on its own domain when it has one (the site's scheme and port kept), else
 * under `/{slug}` on the site. Canonical URLs and mailed links both come from here, so a page has one address.
 */
export function storeUrl(store: { slug: string; customDomain: string | null }, path: string, siteUrl: string): URL {
  const url = new URL(storeHref(linkBaseFor(store.slug, store.customDomain), path), siteUrl);
  if (store.customDomain) url.hostname = store.customDomain;
  return url;
}

/** Named links used across pages. */
export function storeLinks(linkBase: string) {
  return {
    home: storeHref(linkBase, '/'),
    shop: storeHref(linkBase, '/shop'),
    search: storeHref(linkBase, '/search'),
    cart: storeHref(linkBase, '/cart'),
    checkout: storeHref(linkBase, '/checkout'),
    product: (id: string) => storeHref(linkBase, `/product/${encodeURIComponent(id)}`),
    bundle: (id: string) => storeHref(linkBase, `/product-bundle/${encodeURIComponent(id)}`),
    order: (id: string) => storeHref(linkBase, `/order/${encodeURIComponent(id)}`),
    orderConfirmation: (id: string) => storeHref(linkBase, `/order-confirmation/${encodeURIComponent(id)}`),
    policy: (kind: string) => storeHref(linkBase, `/policies/${encodeURIComponent(kind)}`),
    collection: (handle: string) => storeHref(linkBase, `/collections/${encodeURIComponent(handle)}`),
  };
}

export type StoreLinks = ReturnType<typeof storeLinks>;
