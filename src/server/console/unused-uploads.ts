/**
 * The console's uploaded files that nothing shows any more (docs/decisions/201-console-product-images.md):
 * found inside the transaction that stopped showing them, deleted after it commits, so a rolled-back change
 * keeps its files and a committed one leaves no orphan.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { parseMediaUrl } from '../media/media-folder.ts';
import type { MediaStorage } from '../media/media-storage.ts';

type UploadedFile = NonNullable<ReturnType<typeof parseMediaUrl>>;

/**
 * Of images just deleted from the store `slug`, the files to delete: only those the console uploaded (a
 * catalog's own media it did not make) and that no other image or store setting shows.
 */
export async function unusedUploads(
  trx: Kysely<Database>,
  slug: string,
  removed: readonly { url: string; uploaded_at: Date | null }[],
): Promise<UploadedFile[]> {
  const files: UploadedFile[] = [];
  for (const image of removed) {
    const file = parseMediaUrl(image.url);
    if (!image.uploaded_at || file?.slug !== slug) continue;
    const others = await trx
      .selectFrom('product_images')
      .select('id')
      .where('url', '=', image.url)
      .unionAll(
        trx
          .selectFrom('stores')
          .select('id')
          .where((eb) => eb.or([eb('hero_image_url', '=', image.url), eb('favicon_url', '=', image.url)])),
      )
      .limit(1)
      .execute();
    if (others.length === 0 && !files.some((f) => f.name === file.name)) files.push(file);
  }
  return files;
}

/** Deletes the files `unusedUploads` found, once their transaction committed. */
export async function removeUploads(media: MediaStorage, files: readonly UploadedFile[]): Promise<void> {
  for (const file of files) await media.remove(file.slug, file.name);
}
