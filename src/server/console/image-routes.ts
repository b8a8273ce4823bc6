/**
 * A product's images in the console (docs/decisions/201-console-product-images.md): upload (type told by
 * the bytes, size and pixels limited), alt text, gallery order, the default image, delete. Files go to the
 * store's media folder as the import's restricted media do (media-folder.ts), so the front serves them
 * behind the store's access check and makes their derivatives on demand (ADR 120, 184). Every write locks
 * the product row first, so two operators' changes to one gallery apply one after the other.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ConsoleProductImage } from '../../lib/contract/answers.ts';
import { imageUploadFields, productImageEditPayload } from '../../lib/contract/payloads.ts';
import type { Database } from '../db/schema.ts';
import { limitBody } from '../http/body-limit.ts';
import type { AppDeps } from '../http/context.ts';
import { errorsFromIssues, intId, readJson } from '../http/validation.ts';
import { invalid, invalidField, notFound } from '../http/errors.ts';
import { mediaUrl } from '../media/media-folder.ts';
import { MULTIPART_OVERHEAD, readUpload, withStagedMedia } from '../media/image-upload.ts';
import { checkUploadedImage, IMAGE_MESSAGES } from '../media/uploaded-image.ts';
import { auditChange } from './audit-change.ts';
import { removeUploads, unusedUploads } from './unused-uploads.ts';
import type { ConsoleEnv } from './routes.ts';

type Db = Kysely<Database>;

/** The upload route's path: the API's 64 KB body limit leaves it to this module's own. */
export const IMAGE_UPLOAD_PATH = /^\/api\/admin\/stores\/[^/]+\/products\/[^/]+\/images$/;

export const IMAGE_ROUTE_MESSAGES = {
  noFile: 'Choose an image file to upload (JPEG, PNG, WebP or AVIF).',
  unknownImage: 'This image is not one of the product’s.',
} as const;

async function galleryOf(db: Db, productId: number): Promise<ConsoleProductImage[]> {
  const [product, rows] = await Promise.all([
    db.selectFrom('products').select('default_image_id').where('id', '=', productId).executeTakeFirst(),
    db
      .selectFrom('product_images')
      .select(['id', 'url', 'alt', 'content_type', 'width', 'height', 'bytes'])
      .where('product_id', '=', productId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
  ]);
  // The storefront's rule (reshape.ts `defaultImage`): the default, else the first.
  const defaultId = rows.some((row) => row.id === product?.default_image_id) ? product?.default_image_id : rows[0]?.id;
  return rows.map((row) => ({ ...row, id: String(row.id), default: row.id === defaultId }));
}

/** Locks the store's product (404 when it is another store's or none), so its gallery changes one at a time. */
async function lockProduct(trx: Transaction<Database>, storeId: number, productId: number) {
  const product = await trx
    .selectFrom('products')
    .select(['id', 'default_image_id'])
    .where('id', '=', productId)
    .where('store_id', '=', storeId)
    .forUpdate()
    .executeTakeFirst();
  if (!product) throw notFound();
  return product;
}

/** Numbers the gallery 0, 1, 2… in the given order. */
async function renumber(trx: Transaction<Database>, imageIds: readonly number[]): Promise<void> {
  for (const [position, id] of imageIds.entries())
    await trx.updateTable('product_images').set({ position }).where('id', '=', id).execute();
}

const auditedImage = (image: ConsoleProductImage | undefined, index: number) =>
  image ? { url: image.url, alt: image.alt, position: index, default: image.default } : null;

/** `…/stores/{slug}/products/{id}/images…` of the console API. */
export function consoleImageRoutes({ db, clock, config, media }: AppDeps) {
  const app = new Hono<ConsoleEnv>();
  const maxBytes = Math.floor(config.MEDIA_MAX_UPLOAD_MB * 1024 * 1024);
  const tooLarge = IMAGE_MESSAGES.tooLarge(config.MEDIA_MAX_UPLOAD_MB);

  /** The product of the request, if it is the store's: 404 before any body is read. */
  async function productOf(c: Context<ConsoleEnv>): Promise<number> {
    const productId = intId(c.req.param('id'));
    const found = await db
      .selectFrom('products')
      .select('id')
      .where('id', '=', productId)
      .where('store_id', '=', c.var.consoleStore.id)
      .executeTakeFirst();
    if (!found) throw notFound();
    return productId;
  }

  app.get('/', async (c) => c.json({ data: await galleryOf(db, await productOf(c)) }));

  app.post('/', limitBody(maxBytes + MULTIPART_OVERHEAD, { message: tooLarge }), async (c) => {
    const productId = await productOf(c);
    const store = c.var.consoleStore;
    const { bytes, form } = await readUpload(c, { noFile: IMAGE_ROUTE_MESSAGES.noFile, maxBytes, tooLarge });
    const fields = imageUploadFields.safeParse({ alt: typeof form.alt === 'string' ? form.alt : undefined });
    if (!fields.success) throw invalid(errorsFromIssues(fields.error.issues));
    const checked = await checkUploadedImage(bytes);
    if ('refused' in checked) throw invalidField('file', checked.refused);

    // A name of our own (never the uploaded one): the product, random bits, the sniffed type's extension.
    const name = `${productId}-${randomBytes(8).toString('hex')}.${checked.extension}`;
    const url = mediaUrl(store.slug, name);
    const now = clock.now();
    const imageId = await withStagedMedia(media, { slug: store.slug, name, data: checked.data }, (place) =>
      db.transaction().execute(async (trx) => {
        const product = await lockProduct(trx, store.id, productId);
        const next = await trx
          .selectFrom('product_images')
          .select(sql<number>`coalesce(max(position) + 1, 0)::int`.as('position'))
          .where('product_id', '=', productId)
          .executeTakeFirstOrThrow();
        const image = await trx
          .insertInto('product_images')
          .values({
            product_id: productId,
            url,
            alt: fields.data.alt,
            position: next.position,
            content_type: checked.type,
            width: checked.width,
            height: checked.height,
            bytes: checked.bytes,
            uploaded_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // The first image of a product without one becomes its default, as the import does.
        if (product.default_image_id === null)
          await trx.updateTable('products').set({ default_image_id: image.id }).where('id', '=', productId).execute();
        await auditChange(trx, c.var, now, {
          action: 'product.image_upload',
          entity: 'product_image',
          entityId: String(image.id),
          before: null,
          after: {
            product_id: String(productId),
            url,
            alt: fields.data.alt,
            content_type: checked.type,
            width: checked.width,
            height: checked.height,
            bytes: checked.bytes,
          },
        });
        // Moved into place last in the transaction: a failure before this leaves only the temporary file; a
        // failed commit after it, the placed one; withStagedMedia deletes either.
        await place();
        return image.id;
      }),
    );
    const image = (await galleryOf(db, productId)).find((i) => i.id === String(imageId))!;
    return c.json({ data: image }, 201);
  });

  app.patch('/:image_id', async (c) => {
    const productId = intId(c.req.param('id'));
    const imageId = intId(c.req.param('image_id'));
    const edit = await readJson(c, productImageEditPayload);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      await lockProduct(trx, storeId, productId);
      const before = await galleryOf(trx, productId);
      const index = before.findIndex((i) => i.id === String(imageId));
      if (index < 0) throw notFound();
      if (edit.alt !== undefined)
        await trx.updateTable('product_images').set({ alt: edit.alt }).where('id', '=', imageId).execute();
      if (edit.position !== undefined) {
        const order = before.map((i) => Number(i.id)).filter((id) => id !== imageId);
        order.splice(Math.min(edit.position, order.length), 0, imageId);
        await renumber(trx, order);
      }
      if (edit.default)
        await trx.updateTable('products').set({ default_image_id: imageId }).where('id', '=', productId).execute();
      const after = await galleryOf(trx, productId);
      const afterIndex = after.findIndex((i) => i.id === String(imageId));
      await auditChange(trx, c.var, now, {
        action: 'product.image_update',
        entity: 'product_image',
        entityId: String(imageId),
        before: { product_id: String(productId), ...auditedImage(before[index], index) },
        after: { product_id: String(productId), ...auditedImage(after[afterIndex], afterIndex) },
      });
    });
    return c.json({ data: await galleryOf(db, productId) });
  });

  app.delete('/:image_id', async (c) => {
    const productId = intId(c.req.param('id'));
    const imageId = intId(c.req.param('image_id'));
    const store = c.var.consoleStore;
    const now = clock.now();
    const unusedFiles = await db.transaction().execute(async (trx) => {
      const product = await lockProduct(trx, store.id, productId);
      const before = await galleryOf(trx, productId);
      const index = before.findIndex((i) => i.id === String(imageId));
      if (index < 0) throw notFound();
      const removed = await trx
        .deleteFrom('product_images')
        .where('id', '=', imageId)
        .returning(['url', 'uploaded_at'])
        .executeTakeFirstOrThrow();
      await renumber(
        trx,
        before.map((i) => Number(i.id)).filter((id) => id !== imageId),
      );
      // The default gone, the storefront shows the first image, as for a product that never named one.
      if (product.default_image_id === imageId)
        await trx.updateTable('products').set({ default_image_id: null }).where('id', '=', productId).execute();
      await auditChange(trx, c.var, now, {
        action: 'product.image_delete',
        entity: 'product_image',
        entityId: String(imageId),
        before: { product_id: String(productId), ...auditedImage(before[index], index) },
        after: null,
      });
      return unusedUploads(trx, store.slug, [removed]);
    });
    await removeUploads(media, unusedFiles);
    return c.json({ data: await galleryOf(db, productId) });
  });

  return app;
}
