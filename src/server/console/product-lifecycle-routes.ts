/**
 * Creating and removing products in the console (docs/decisions/207-product-editor.md): a new product
 * comes with its first variant, by the import's rules; a product nothing names is deleted, one that
 * orders or carts name is archived — hidden from the storefront, kept for its orders — and one a bundle
 * holds is refused; a deleted product's uploaded files are deleted after the commit. Audited; the listing
 * columns follow by trigger, search text is written.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { sql } from 'kysely';
import { centsToDecimal } from '../../lib/money.ts';
import { productCreatePayload, productRestorePayload, variantRemovalQuery } from '../../lib/contract/payloads.ts';
import { sanitizeDescription } from '../catalog/import.ts';
import { refreshSearchText } from '../catalog/search-text.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, notFound } from '../http/errors.ts';
import { intId, readJson, readQuery } from '../http/validation.ts';
import { auditChange } from './audit-change.ts';
import { lockProductAt, productAnswer } from './product-routes.ts';
import type { ConsoleEnv } from './routes.ts';
import { claimSkus, VARIANT_ROUTE_MESSAGES } from './variant-routes.ts';
import { catalogWrite } from './catalog-writes.ts';
import { removeUploads, unusedUploads } from './unused-uploads.ts';

export const PRODUCT_LIFECYCLE_MESSAGES = {
  inBundles: (names: string) => `The bundle ${names} holds this product: import the bundle without it first.`,
  notArchived: 'This product is on sale already.',
} as const;

/**
 * The catalog id of a product made in the console: its name as a key, and a random tail so it never
 * meets one of an imported catalog's ids (an import matches products by them).
 */
function catalogKeyOf(name: string): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'product';
  return `${base}-${randomBytes(4).toString('hex')}`;
}

/**
 * `POST …/stores/{slug}/products`, `DELETE …/stores/{slug}/products/{id}` and
 * `POST …/stores/{slug}/products/{id}/restore` of the console API.
 */
export function consoleProductLifecycleRoutes(deps: AppDeps) {
  const { db, clock } = deps;
  const app = new Hono<ConsoleEnv>();

  app.post('/', async (c) => {
    const form = await readJson(c, productCreatePayload);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    const productId = await catalogWrite(deps, c, async (trx) => {
      await claimSkus(trx, storeId, [{ sku: form.variant.sku, field: 'variant.sku' }], []);
      const last = await trx
        .selectFrom('products')
        .select(sql<number>`coalesce(max(position), -1)::int`.as('position'))
        .where('store_id', '=', storeId)
        .executeTakeFirstOrThrow();
      const product = await trx
        .insertInto('products')
        .values({
          store_id: storeId,
          external_id: catalogKeyOf(form.name),
          name: form.name,
          description_html: sanitizeDescription(form.description_html),
          featured: false,
          option_names: JSON.stringify(form.option_names),
          position: last.position + 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const variant = await trx
        .insertInto('product_variants')
        .values({
          product_id: product.id,
          store_id: storeId,
          sku: form.variant.sku,
          name: form.variant.name,
          options: JSON.stringify(form.variant.options),
          price_cents: form.variant.price,
          stock: form.variant.stock,
          position: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (form.variant.stock > 0)
        await trx
          .insertInto('stock_adjustments')
          .values({
            store_id: storeId,
            product_id: product.id,
            variant_id: variant.id,
            delta: form.variant.stock,
            stock_after: form.variant.stock,
            reason: 'received',
            note: VARIANT_ROUTE_MESSAGES.startingStock,
            operator_id: c.var.session.operatorId,
            actor: c.var.session.email,
            at: now,
          })
          .execute();
      await refreshSearchText(trx, storeId, { productId: product.id });
      await auditChange(trx, c.var, now, {
        action: 'product.create',
        entity: 'product',
        entityId: String(product.id),
        before: null,
        after: {
          name: form.name,
          option_names: form.option_names,
          variant: { ...form.variant, price: centsToDecimal(form.variant.price) },
        },
      });
      return product.id;
    });
    return c.json({ data: (await productAnswer(db, storeId, productId))! }, 201);
  });

  app.delete('/:id', async (c) => {
    const productId = intId(c.req.param('id'));
    const { version } = readQuery(c, variantRemovalQuery);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    const { outcome, unusedFiles } = await catalogWrite(deps, c, async (trx) => {
      await lockProductAt(trx, storeId, productId, version);
      const before = await productAnswer(trx, storeId, productId);
      if (!before) throw notFound();
      // Its variants locked before looking, as a variant's removal does: a checkout or a cart adding
      // one waits for this transaction, or has committed and is seen below.
      await trx.selectFrom('product_variants').select('id').where('product_id', '=', productId).forUpdate().execute();
      const bundles = await trx
        .selectFrom('bundle_items as bi')
        .innerJoin('bundles as b', 'b.id', 'bi.bundle_id')
        .innerJoin('product_variants as v', 'v.id', 'bi.product_variant_id')
        .select('b.name')
        .distinct()
        .where('v.product_id', '=', productId)
        .orderBy('b.name')
        .execute();
      if (bundles.length > 0)
        throw conflict(PRODUCT_LIFECYCLE_MESSAGES.inBundles(bundles.map((b) => b.name).join(', ')));
      const { rows } = await sql<{ named: boolean }>`select
          exists (
            select 1 from cart_lines l join product_variants v on v.id = l.product_variant_id
            where v.product_id = ${productId}
          )
          or exists (
            select 1 from orders o cross join lateral jsonb_array_elements(o.details -> 'cartItems') item
            where o.store_id = ${storeId}
              and (item -> 'product_details' ->> 'product_variant_id')::bigint in
                (select id from product_variants where product_id = ${productId})
          ) as named`.execute(trx);
      const archived = rows[0]?.named === true;
      // A deleted product's images go with it (cascade); the files the console uploaded for them, after the commit.
      const images = archived
        ? []
        : await trx
            .selectFrom('product_images')
            .select(['url', 'uploaded_at'])
            .where('product_id', '=', productId)
            .execute();
      if (archived) await trx.updateTable('products').set({ archived_at: now }).where('id', '=', productId).execute();
      else await trx.deleteFrom('products').where('id', '=', productId).execute();
      await auditChange(trx, c.var, now, {
        action: archived ? 'product.archive' : 'product.delete',
        entity: 'product',
        entityId: String(productId),
        before: { name: before.name, skus: before.variants.map((v) => v.sku) },
        after: { outcome: archived ? 'archived' : 'deleted' },
      });
      return {
        outcome: archived ? ('archived' as const) : ('deleted' as const),
        unusedFiles: await unusedUploads(trx, c.var.consoleStore.slug, images),
      };
    });
    await removeUploads(deps.media, unusedFiles);
    return c.json({ data: { id: String(productId), outcome } });
  });

  // An archived product back on sale, as an import listing it would do (docs/decisions/207-product-editor.md).
  app.post('/:id/restore', async (c) => {
    const productId = intId(c.req.param('id'));
    const { version } = await readJson(c, productRestorePayload);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    await catalogWrite(deps, c, async (trx) => {
      await lockProductAt(trx, storeId, productId, version);
      const restored = await trx
        .updateTable('products')
        // A new version: a second tab still showing the archived product cannot act on it again.
        .set((eb) => ({ archived_at: null, version: eb('version', '+', 1) }))
        .where('id', '=', productId)
        .where('archived_at', 'is not', null)
        .returning('name')
        .executeTakeFirst();
      if (!restored) throw conflict(PRODUCT_LIFECYCLE_MESSAGES.notArchived);
      await auditChange(trx, c.var, now, {
        action: 'product.restore',
        entity: 'product',
        entityId: String(productId),
        before: { name: restored.name, outcome: 'archived' },
        after: { outcome: 'on sale' },
      });
    });
    return c.json({ data: (await productAnswer(db, storeId, productId))! });
  });

  return app;
}
