/**
 * What an uploaded image is, decided from its bytes (docs/decisions/201-console-product-images.md): the
 * type from its signature, never its name or Content-Type; then decoded with sharp, with a pixel limit
 * that refuses decompression bombs before their pixels are allocated.
 */
import sharp from 'sharp';

export type UploadedImageType = { type: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/avif'; extension: string };

/** The largest picture accepted (pixels): the front makes derivatives up to this size (image-derivatives.ts). */
export const MAX_IMAGE_PIXELS = 40_000_000;
/** The smallest side accepted (pixels): the product page's thumbnails are 96 CSS px. */
export const MIN_IMAGE_SIDE = 100;

/** What an upload is for: the smallest side it may have, and what the refusal calls such images. */
export type ImagePurpose = { minSide: number; what: string };
const PRODUCT_IMAGE: ImagePurpose = { minSide: MIN_IMAGE_SIDE, what: 'product images' };

export const IMAGE_MESSAGES = {
  notAnImage: 'This file is not a JPEG, PNG, WebP or AVIF image. Other files (SVG, GIF, PDF…) cannot be uploaded.',
  unreadable: 'This image could not be read: the file is damaged or incomplete.',
  tooManyPixels: (width: number, height: number) =>
    `This image is ${width} × ${height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels are accepted.`,
  tooSmall: (width: number, height: number, purpose: ImagePurpose = PRODUCT_IMAGE) =>
    `This image is only ${width} × ${height} pixels; ${purpose.what} need at least ${purpose.minSide} on each side.`,
  tooLarge: (megabytes: number) => `This image is larger than ${megabytes} MB. Choose a smaller file.`,
} as const;

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');

/** The image type its first bytes say, or null: JPEG, PNG, WebP and AVIF only (SVG is text, and refused). */
export function sniffImageType(bytes: Uint8Array): UploadedImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { type: 'image/jpeg', extension: 'jpg' };
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return { type: 'image/png', extension: 'png' };
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return { type: 'image/webp', extension: 'webp' };
  // ISO-BMFF: a `ftyp` box whose major or compatible brands include an AVIF one.
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === 'ftyp') {
    const boxSize = Math.min(bytes.length, Buffer.from(bytes.subarray(0, 4)).readUInt32BE(0));
    for (let at = 8; at + 4 <= boxSize; at += 4) {
      if (at === 12) continue; // the minor version
      const brand = ascii(bytes, at, at + 4);
      if (brand === 'avif' || brand === 'avis') return { type: 'image/avif', extension: 'avif' };
    }
  }
  return null;
}

export type CheckedImage = UploadedImageType & {
  width: number;
  height: number;
  bytes: number;
  /** What to store: the upload itself, or re-encoded without its metadata when it had any. */
  data: Uint8Array;
};

/**
 * The upload without its metadata (EXIF, XMP, IPTC), turned the way its EXIF orientation said: a phone's
 * photograph carries where it was taken, and originals are served as the storefront's fallback image.
 * Re-encoded in its own type at a quality a shopper cannot tell from the original (PNG stays lossless).
 */
async function withoutMetadata(bytes: Uint8Array, type: UploadedImageType['type']): Promise<Uint8Array> {
  const image = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).rotate().keepIccProfile();
  switch (type) {
    case 'image/jpeg':
      return image.jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer();
    case 'image/png':
      return image.png().toBuffer();
    case 'image/webp':
      return image.webp({ quality: 95 }).toBuffer();
    case 'image/avif':
      return image.avif({ quality: 80 }).toBuffer();
  }
}

/** Checks an upload: its type by signature, then a full decode within the pixel limits; a refusal is a message. */
export async function checkUploadedImage(
  bytes: Uint8Array,
  purpose: ImagePurpose = PRODUCT_IMAGE,
): Promise<CheckedImage | { refused: string }> {
  const sniffed = sniffImageType(bytes);
  if (!sniffed) return { refused: IMAGE_MESSAGES.notAnImage };
  let width: number;
  let height: number;
  let carriesMetadata: boolean;
  try {
    // The header first: a bomb is refused by its declared size, before any pixel is decoded.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    width = meta.autoOrient.width;
    height = meta.autoOrient.height;
    carriesMetadata = Boolean(meta.exif ?? meta.xmp ?? meta.iptc);
  } catch {
    return { refused: IMAGE_MESSAGES.unreadable };
  }
  if (width * height > MAX_IMAGE_PIXELS) return { refused: IMAGE_MESSAGES.tooManyPixels(width, height) };
  if (width < purpose.minSide || height < purpose.minSide)
    return { refused: IMAGE_MESSAGES.tooSmall(width, height, purpose) };
  try {
    // Then every pixel, under sharp's own limit too: a truncated or corrupt file is refused here.
    await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' }).stats();
  } catch {
    return { refused: IMAGE_MESSAGES.unreadable };
  }
  const data = carriesMetadata ? await withoutMetadata(bytes, sniffed.type) : bytes;
  return { ...sniffed, width, height, bytes: data.length, data };
}
