/**
 * Structured data for search engines (schema.org Product / Offer / ItemList / BreadcrumbList), built from the
 * page data so the snapshot and the on-demand page say the same thing.
 */
import { CURRENCY } from '../money.ts';
import type { BundlePageData } from '../page-data/bundle.ts';
import type { ProductPageData } from '../page-data/product.ts';
import type { StoreLinks } from '../store-links.ts';
import type { CatalogCard } from './catalog-card.ts';

/** Plain text of sanitised HTML, for meta descriptions (tags dropped, entities of the common five decoded). */
export function plainText(html: string, max = 160): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

const availability = (available: boolean) =>
  available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock';

function absolute(url: string, origin: string): string {
  return new URL(url, origin).href;
}

/** The product page with a variant chosen (`?variant=ID`), as the AddToCart island writes it. */
function variantUrl(canonical: string, variantId: string): string {
  const url = new URL(canonical);
  url.searchParams.set('variant', variantId);
  return url.href;
}

/** Product with one Offer per variant: its SKU, price, availability and its own page address. */
export function productJsonLd(data: ProductPageData, canonical: string, origin: string): Record<string, unknown> {
  const { product, variants } = data;
  const offers = variants.length
    ? variants.map((v) => ({
        '@type': 'Offer',
        sku: data.variantMeta[v.id]?.sku ?? v.id,
        name: v.name,
        price: v.price,
        priceCurrency: CURRENCY,
        availability: availability(v.available),
        url: variantUrl(canonical, v.id),
      }))
    : [
        {
          '@type': 'Offer',
          price: product.price,
          priceCurrency: CURRENCY,
          availability: availability(product.available),
          url: canonical,
        },
      ];
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: plainText(product.description, 5000),
    image: product.gallery.map((image) => absolute(image.url, origin)),
    url: canonical,
    offers,
  };
}

/** A page's place in the store (schema.org BreadcrumbList): each step's name and absolute URL, the page last. */
export function breadcrumbJsonLd(steps: readonly { name: string; url: string }[]): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: steps.map((step, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: step.name,
      item: step.url,
    })),
  };
}

/**
 * A listing's items in the order shown (schema.org ItemList): position from 1 and each one's absolute,
 * canonical product or bundle page.
 */
export function itemListJsonLd(
  cards: readonly Pick<CatalogCard, 'kind' | 'id' | 'name'>[],
  canonical: Pick<StoreLinks, 'product' | 'bundle'>,
): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    numberOfItems: cards.length,
    itemListElement: cards.map((card, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: card.name,
      url: card.kind === 'bundle' ? canonical.bundle(card.id) : canonical.product(card.id),
    })),
  };
}

/** A bundle is sold as one product at its total. */
export function bundleJsonLd(data: BundlePageData, canonical: string, origin: string): Record<string, unknown> {
  const { bundle } = data;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: bundle.name,
    description:
      plainText(bundle.description, 5000) || data.items.map((i) => `${i.quantity} × ${i.productName}`).join(', '),
    image: bundle.gallery.map((image) => absolute(image.url, origin)),
    url: canonical,
    offers: {
      '@type': 'Offer',
      price: bundle.price,
      priceCurrency: CURRENCY,
      availability: availability(bundle.available),
      url: canonical,
    },
  };
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped so no text can close the tag. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
