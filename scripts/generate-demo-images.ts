/**
 * Writes the demo catalog's product images and favicons as SVG files, so the demo data never
 * hot-links: public stores' into public/images/demo/ (static files), a store's own media
 * (`/{slug}/media/…`, the restricted store's) into the repository's media/ folder, which the front
 * serves only with access. Run after changing src/server/db/demo-data.ts:
 * `node scripts/generate-demo-images.ts`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoCatalogs } from '../src/server/db/demo-data.ts';
import { MediaFolder, parseMediaUrl } from '../src/server/media/media-folder.ts';

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

function productSvg(name: string, view: number, seed: string): string {
  const h = (hue(seed) + view * 40) % 360;
  const shapes = [
    `<circle cx="400" cy="360" r="170" fill="hsl(${h} 55% 62%)"/>`,
    `<rect x="250" y="200" width="300" height="320" rx="36" fill="hsl(${h} 50% 58%)"/>`,
    `<path d="M400 170 L590 520 L210 520 Z" fill="hsl(${h} 52% 60%)"/>`,
    `<rect x="220" y="240" width="360" height="240" rx="120" fill="hsl(${h} 48% 60%)"/>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800" role="img" aria-label="${escape(name)}">
<rect width="800" height="800" fill="hsl(${h} 40% 94%)"/>
${shapes[(view - 1) % shapes.length]}
<text x="400" y="660" font-family="system-ui, sans-serif" font-size="40" font-weight="600" text-anchor="middle" fill="hsl(${h} 45% 22%)">${escape(name)}</text>
<text x="400" y="712" font-family="system-ui, sans-serif" font-size="26" text-anchor="middle" fill="hsl(${h} 30% 38%)">view ${view}</text>
</svg>
`;
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
  for (const product of catalog.products ?? []) {
    for (const [i, image] of (product.images ?? []).entries()) {
      if (await writeAt(image.url, productSvg(product.name, i + 1, product.id))) count++;
    }
  }
}
console.log(`Wrote ${count} images to ${out} and ${media.root}`);
