/**
 * The custom-domain rule of spec §5: a host is a store's own domain only if it looks like a
 * hostname of at least three dot-separated labels and is on neither the hosting platform's
 * default domain (`PLATFORM_DOMAIN`) nor the product's shop domain (`SHOP_DOMAIN`).
 */

export type DomainConfig = {
  /** e.g. "onrender.com": hosts under it are the platform's, never a store's. */
  platformDomain?: string | undefined;
  /** e.g. "shop.example.com": the product's own host, stores are reached by slug there. */
  shopDomain?: string | undefined;
};

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Lower-cases the host and drops a port and a trailing dot. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h; // IPv6 literal: never a store domain
  const colon = h.lastIndexOf(':');
  if (colon >= 0) h = h.slice(0, colon);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

function isUnder(host: string, domain: string | undefined): boolean {
  if (!domain) return false;
  const d = normalizeHost(domain);
  return host === d || host.endsWith(`.${d}`);
}

/** True when `host` (with or without a port) is a custom store domain. */
export function isCustomDomain(host: string | null | undefined, config: DomainConfig): boolean {
  if (!host) return false;
  const h = normalizeHost(host);
  const labels = h.split('.');
  if (labels.length < 3 || !labels.every((l) => LABEL.test(l))) return false;
  // An IPv4 address has four labels but is not a hostname.
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return false;
  return !isUnder(h, config.platformDomain) && !isUnder(h, config.shopDomain);
}
