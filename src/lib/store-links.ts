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

/** Named links used across pages. */
export function storeLinks(linkBase: string) {
  return {
    home: storeHref(linkBase, '/'),
    shop: storeHref(linkBase, '/shop'),
    cart: storeHref(linkBase, '/cart'),
    checkout: storeHref(linkBase, '/checkout'),
    product: (id: string) => storeHref(linkBase, `/product/${encodeURIComponent(id)}`),
    bundle: (id: string) => storeHref(linkBase, `/product-bundle/${encodeURIComponent(id)}`),
    order: (id: string) => storeHref(linkBase, `/order/${encodeURIComponent(id)}`),
    orderConfirmation: (id: string) => storeHref(linkBase, `/order-confirmation/${encodeURIComponent(id)}`),
  };
}

export type StoreLinks = ReturnType<typeof storeLinks>;
