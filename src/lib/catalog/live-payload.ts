/**
 * The product and bundle islands' data from their page's payload of the live build (spec §7,
 * `{path}/_payload.json?{build hash}`): a page kept open across a publish shows the new build's
 * price and availability on the next view (docs/decisions/131-islands-read-the-live-payload.md).
 */
import type { VariantView } from './catalog-card.ts';

/** Dispatched on `window` by the build poller when the live build is not the one last announced; `detail.id`. */
export const LIVE_BUILD_EVENT = 'storefront:live-build';

/** `{path}/_payload.json?{build id}`: the build id keys caches, the front answers from the live build. */
export function payloadUrl(pathname: string, buildId: string): string {
  return `${pathname.replace(/\/+$/, '')}/_payload.json?${encodeURIComponent(buildId)}`;
}

type Loose = { page?: unknown; data?: Record<string, unknown> } | null;

/** The variants a product page's payload holds; null for anything else. */
export function productPayloadData(body: unknown): { variants: VariantView[] } | null {
  const payload = body as Loose;
  const variants = payload?.page === 'product' ? payload.data?.variants : undefined;
  return Array.isArray(variants) ? { variants: variants as VariantView[] } : null;
}

/** The price and availability a bundle page's payload holds; null for anything else. */
export function bundlePayloadData(body: unknown): { price: string; available: boolean } | null {
  const payload = body as Loose;
  const bundle = (payload?.page === 'bundle' ? payload.data?.bundle : undefined) as
    { price?: unknown; available?: unknown } | undefined;
  if (typeof bundle?.price !== 'string' || typeof bundle.available !== 'boolean') return null;
  return { price: bundle.price, available: bundle.available };
}
