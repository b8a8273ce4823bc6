/**
 * Responsive images (docs/decisions/184-responsive-image-derivatives.md): which widths and formats a
 * catalog image is offered in where it shows, and the derivative URLs the front answers — the original's
 * own path with `?w={width}&fm={format}`, so a store's media keep their access check and custom-domain
 * mapping unchanged. Pure: used by pages, islands, the front and the snapshot build.
 */

export const DERIVATIVE_FORMATS = ['avif', 'webp'] as const;
export type DerivativeFormat = (typeof DERIVATIVE_FORMATS)[number];

/** Where an image shows: the widths its file is offered in, and the `sizes` its layout gives it. */
export const IMAGE_SLOTS = {
  /** Cart, checkout and order lines (72 CSS px), gallery thumbnails (96). */
  thumb: { widths: [160, 240], sizes: '96px' },
  /** Product and bundle cards: two columns on a phone, up to five in the 72rem page. */
  card: { widths: [320, 640], sizes: '(max-width: 36rem) 50vw, (max-width: 56rem) 33vw, 240px' },
  /** The product and bundle page's main image: full width on a phone, half the page from 56rem. */
  gallery: { widths: [480, 640, 960], sizes: '(min-width: 72rem) 600px, (min-width: 56rem) 52vw, 100vw' },
  /** The store front's hero: full width on a phone, half the page from 56rem. */
  hero: { widths: [640, 960, 1280], sizes: '(min-width: 72rem) 560px, (min-width: 56rem) 48vw, 100vw' },
} as const satisfies Record<string, { widths: readonly number[]; sizes: string }>;
export type ImageSlot = keyof typeof IMAGE_SLOTS;

/** Every width the front makes: a request for any other is refused, so nobody fills the cache at will. */
export const DERIVATIVE_WIDTHS: readonly number[] = [
  ...new Set(Object.values(IMAGE_SLOTS).flatMap((slot) => slot.widths)),
].sort((a, b) => a - b);

/** Extensions the front can turn into AVIF/WebP (sharp with librsvg); GIF and ICO stay as they are. */
const PROCESSABLE = /\.(svg|png|jpe?g|webp|avif)$/i;

/**
 * True when the front makes derivatives of this image: a path of this site (a public file or a store's
 * media) with a processable extension. An external URL or anything else is shown as it is.
 */
export function hasDerivatives(url: string): boolean {
  return (
    url.startsWith('/') && !url.startsWith('//') && !/[?#\\]/.test(url) && !url.includes('..') && PROCESSABLE.test(url)
  );
}

/** The URL of one derivative of a local image. */
export function derivativeUrl(url: string, width: number, format: DerivativeFormat): string {
  return `${url}?w=${width}&fm=${format}`;
}

export type PictureSource = { type: `image/${DerivativeFormat}`; srcset: string };

/** The `<source>`s of a `<picture>` for an image in a slot, best format first; none when it has no derivatives. */
export function pictureSources(url: string, slot: ImageSlot): PictureSource[] {
  if (!hasDerivatives(url)) return [];
  return DERIVATIVE_FORMATS.map((format) => ({
    type: `image/${format}` as const,
    srcset: IMAGE_SLOTS[slot].widths.map((w) => `${derivativeUrl(url, w, format)} ${w}w`).join(', '),
  }));
}

export type DerivativeRequest = { width: number; format: DerivativeFormat };

/**
 * Reads a request's derivative query: null when it asks for none (the original), 'invalid' when it asks
 * for a width or format the front does not make.
 */
export function parseDerivativeQuery(search: URLSearchParams): DerivativeRequest | 'invalid' | null {
  if (!search.has('w') && !search.has('fm')) return null;
  const width = Number(search.get('w'));
  const format = search.get('fm') as DerivativeFormat | null;
  if (!DERIVATIVE_WIDTHS.includes(width) || !format || !DERIVATIVE_FORMATS.includes(format)) return 'invalid';
  if ([...search.keys()].some((key) => key !== 'w' && key !== 'fm')) return 'invalid';
  return { width, format };
}

/** The derivative URLs a page's HTML offers (its `srcset`s), for the build to make before it goes live. */
export function derivativeUrlsIn(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/srcset="([^"]*)"/g)) {
    for (const candidate of match[1]!.split(',')) {
      const url = candidate.trim().split(/\s+/)[0]!.replaceAll('&amp;', '&');
      if (/\?w=\d+&fm=[a-z]+$/.test(url)) urls.add(url);
    }
  }
  return [...urls];
}

/**
 * The picture a link preview shows (`og:image`): a local image as its widest WebP derivative — preview
 * crawlers read neither SVG nor, often, AVIF — and any other URL as it is.
 */
export function shareImageUrl(url: string): string {
  return hasDerivatives(url) ? derivativeUrl(url, IMAGE_SLOTS.hero.widths.at(-1)!, 'webp') : url;
}

/** The build folder's folder of derivative files (`derivativeFilePath`). */
const DERIVATIVE_FILES = '/_derivatives';

/**
 * Where a build folder keeps one derivative of a local image, for static hosts, which do not pick a file by
 * the query (docs/decisions/212-builds-as-static-artifacts.md): `/images/tee.svg?w=320&fm=avif` is the file
 * `/_derivatives/images/tee.svg.w320.avif`, in a folder of their own so a few header rules cover them all.
 */
export function derivativeFilePath(url: string, width: number, format: DerivativeFormat): string {
  return `${DERIVATIVE_FILES}${url}.w${width}.${format}`;
}

/** The original's path of a derivative's file path (`derivativeFilePath`), or null for any other path. */
export function originalOfDerivativeFile(filePath: string): string | null {
  if (!filePath.startsWith(`${DERIVATIVE_FILES}/`)) return null;
  const match = /^(.+)\.w(\d+)\.(avif|webp)$/.exec(filePath.slice(DERIVATIVE_FILES.length));
  return match && hasDerivatives(match[1]!) && DERIVATIVE_WIDTHS.includes(Number(match[2])) ? match[1]! : null;
}
