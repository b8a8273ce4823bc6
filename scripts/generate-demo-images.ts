/**
 * Writes the demo catalog's product images, the store front's hero and the favicons as SVG files (the
 * masters: shoppers are sent AVIF/WebP derivatives, docs/decisions/184-responsive-image-derivatives.md), so the demo data never
 * hot-links: public stores' into public/images/demo/ (static files), a store's own media
 * (`/{slug}/media/…`, the restricted store's) into the repository's media/ folder, which the front
 * serves only with access. Run after changing src/server/db/demo-data.ts:
 * `node scripts/generate-demo-images.ts`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoCatalogs } from '../src/server/db/demo-data.ts';
import { MediaFolder, parseMediaUrl } from '../src/server/media/media-folder.ts';
import type { CatalogInput } from '../src/server/catalog/catalog-format.ts';
import { COLOURS } from './demo-art/art-direction.ts';
import { heroScene, productView, viewsFor } from './demo-art/compose.ts';

const root = join(import.meta.dirname, '..');
const out = join(root, 'public', 'images', 'demo');
const media = new MediaFolder(join(root, 'media'));

/** Writes one demo file where its URL says it is served from; false for URLs that are not ours. */
async function writeAt(url: string, svg: string): Promise<boolean> {
  const own = parseMediaUrl(url);
  if (own) {
    await media.write(own.slug, own.name, svg);
    return true;
  }
  if (!url.startsWith('/images/demo/')) return false;
  await writeFile(join(out, url.slice('/images/demo/'.length)), svg);
  return true;
}
const escape = (text: string) =>
  text.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

function hue(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

/** The product's colours in the order its variants list them (its Color option), mapped to the palette. */
function colours(product: NonNullable<CatalogInput['products']>[number]): string[] {
  const names = new Set(product.variants.map((v) => v.options?.Color).filter((name) => name !== undefined));
  return [...names].map((name) => COLOURS[name]).filter((hex) => hex !== undefined);
}

function faviconSvg(letter: string, seed: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="hsl(${hue(seed)} 55% 40%)"/><text x="32" y="44" font-family="system-ui, sans-serif" font-size="36" font-weight="700" text-anchor="middle" fill="#fff">${escape(letter)}</text></svg>
`;
}

await mkdir(out, { recursive: true });
let count = 0;
for (const catalog of demoCatalogs) {
  const favicon = catalog.store.favicon_url;
  if (favicon && (await writeAt(favicon, faviconSvg(catalog.store.title[0] ?? '?', catalog.store.slug)))) count++;
  const hero = catalog.store.hero_image_url;
  if (hero && (await writeAt(hero, heroScene()))) count++;
  for (const product of catalog.products ?? []) {
    const images = product.images ?? [];
    const palette = colours(product);
    // An image of variants is drawn in their colour, its views counted among that colour's images
    // (docs/decisions/193-variant-images.md); the others take the palette in turn.
    const colourOf = (image: (typeof images)[number]) => {
      const variant = product.variants.find((v) => v.sku === image.variant_skus?.[0]);
      return variant?.options?.Color;
    };
    for (const [i, image] of images.entries()) {
      const colour = colourOf(image);
      const group = colour === undefined ? images : images.filter((other) => colourOf(other) === colour);
      const view = viewsFor(group.length)[group.indexOf(image)]!;
      const hex = colour === undefined ? palette[i % Math.max(palette.length, 1)] : COLOURS[colour];
      if (await writeAt(image.url, productView(product.id, view, hex))) count++;
    }
  }
}
console.log(`Wrote ${count} images to ${out} and ${media.root}`);
