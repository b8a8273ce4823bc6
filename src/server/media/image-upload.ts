/**
 * The console's image uploads, product images and favicons alike (docs/decisions/201-console-product-images.md):
 * one `file` part read from a multipart body, and its file written so that no failure leaves one behind.
 */
import type { Context } from 'hono';
import { HttpError, invalidField } from '../http/errors.ts';
import type { MediaStorage } from './media-storage.ts';

export type UploadForm = Record<string, string | File | (string | File)[]>;

/** Room for the multipart framing and the text fields around the file. */
export const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * The upload's `file` part and the form's other fields: no readable form or no file is 422 on `file` with
 * `noFile`; a file over `maxBytes` is 413 with `tooLarge`.
 */
export async function readUpload(
  c: Context,
  limits: { noFile: string; maxBytes: number; tooLarge: string },
): Promise<{ bytes: Uint8Array; form: UploadForm }> {
  let form: UploadForm;
  try {
    form = await c.req.parseBody();
  } catch {
    throw invalidField('file', limits.noFile);
  }
  const file = form.file;
  if (!(file instanceof File)) throw invalidField('file', limits.noFile);
  if (file.size > limits.maxBytes) throw new HttpError(413, { message: limits.tooLarge });
  return { bytes: new Uint8Array(await file.arrayBuffer()), form };
}

/**
 * Writes a store's media file beside the row that names it: the file is staged under a name the front never
 * serves, `write` runs the transaction and calls `place()` as its last step, and on any failure the temporary
 * file (or, when the commit itself failed, the placed one) is deleted.
 */
export async function withStagedMedia<T>(
  media: MediaStorage,
  file: { slug: string; name: string; data: Uint8Array },
  write: (place: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const staged = await media.stage(file.slug, file.name, file.data);
  // Set inside `write`'s callback, read after it.
  const placement = { placed: false };
  try {
    return await write(async () => {
      await staged.place();
      placement.placed = true;
    });
  } catch (error) {
    await (placement.placed ? media.remove(file.slug, file.name) : staged.discard());
    throw error;
  }
}
