/**
 * A product's options and variants in the console (docs/decisions/207-product-editor.md): the options
 * and every variant's SKU, name and values saved together, a variant added (its starting stock logged as
 * an adjustment), a variant removed — deleted when nothing names it, deactivated when orders or carts do.
 * Each change is made from the product's version (409 when stale), with the import's rules, in one
 * transaction, audited; the listing columns follow by trigger (migration 0015) and search text is rewritten.
 */
import { Hono } from 'hono';
import { sql, type Kysely } from 'kysely';
import { optionProblems, sameCombination, VARIANT_MESSAGES } from '../../lib/catalog/variant-rules.ts';
import type { ConsoleProduct } from '../../lib/contract/answers.ts';
import { centsToDecimal } from '../../lib/money.ts';
import {
  productRestorePayload,
  productVariantsPayload,
  variantAddPayload,
  variantRemovalQuery,
} from '../../lib/contract/payloads.ts';
import { refreshSearchText } from '../catalog/search-text.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, invalid, invalidField, notFound } from '../http/errors.ts';
import { intId, readJson, readQuery } from '../http/validation.ts';
import { auditChange } from './audit-change.ts';
import { lockProductAt, PRODUCT_MESSAGES, productAnswer } from './product-routes.ts';
import type { ConsoleEnv } from './routes.ts';
import { catalogWrite } from './catalog-writes.ts';

type Db = Kysely<Database>;

export const VARIANT_ROUTE_MESSAGES = {
  skuTaken: 'Another variant in this store has this SKU.',
  listEvery: 'List every variant on sale: reload the page to see one added since.',
  lastVariant: 'A product keeps at least one variant: add another before removing this one.',
  inBundles: (names: string) => `The bundle ${names} holds this variant: import the bundle without it first.`,
  startingStock: 'Starting stock',
  takenOffSale: 'Taken off sale',
  onSale: 'This variant is on sale already.',
  optionsChanged: (sku: string) =>
    `${sku} no longer fits the product’s options: add a variant with this product’s options instead.`,
} as const;

/**
 * Refuses SKUs another variant of the store holds (`except`: the variants being saved). Each SKU is
 * locked for the rest of the transaction first, so two operators giving one SKU to two products at once
 * are told apart: the second waits, then sees the first's row.
 */
export async function claimSkus(
  trx: Db,
  storeId: number,
  wanted: readonly { sku: string; field: string }[],
  except: readonly number[],
): Promise<void> {
  if (wanted.length === 0) return;
  const skus = [...new Set(wanted.map((w) => w.sku))].sort();
  for (const sku of skus) await sql`select pg_advisory_xact_lock(${storeId}::int, hashtext(${sku}::text))`.execute(trx);
  const taken = await trx
    .selectFrom('product_variants')
    .select('sku')
    .where('store_id', '=', storeId)
    .where('sku', 'in', skus)
    .$if(except.length > 0, (qb) => qb.where('id', 'not in', except))
    .execute();
  const takenSkus = new Set(taken.map((t) => t.sku));
  const errors = Object.fromEntries(
    wanted.filter((w) => takenSkus.has(w.sku)).map((w) => [w.field, [VARIANT_ROUTE_MESSAGES.skuTaken]]),
  );
  if (Object.keys(errors).length > 0) throw invalid(errors);
}

/** What the variants' part of the form holds, for the audit log. */
const variantsOf = (p: ConsoleProduct) => ({
  option_names: p.option_names,
  variants: p.variants.map((v) => ({ sku: v.sku, name: v.name, options: v.options })),
});

const bumpVersion = (trx: Db, productId: number) =>
  trx
    .updateTable('products')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', productId)
    .execute();

/** `…/stores/{slug}/products/{id}/variants…` of the console API. */
export function consoleVariantRoutes(deps: AppDeps) {
  const { db, clock } = deps;
  const app = new Hono<ConsoleEnv>();

  app.put('/', async (c) => {
    const productId = intId(c.req.param('id'));
    const form = await readJson(c, productVariantsPayload);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    await catalogWrite(deps, c, async (trx) => {
      await lockProductAt(trx, storeId, productId, form.version);
      const before = (await productAnswer(trx, storeId, productId))!;
      const current = new Map(before.variants.map((v) => [Number(v.id), v]));
      const unknown = form.variants.findIndex((v) => !current.has(v.id));
      if (unknown >= 0) throw invalidField(`variants.${unknown}.id`, PRODUCT_MESSAGES.unknownVariant);
      if (new Set(form.variants.map((v) => v.id)).size !== current.size)
        throw invalidField('variants', VARIANT_ROUTE_MESSAGES.listEvery);
      const renamed = form.variants.flatMap((v, i) =>
        v.sku === current.get(v.id)!.sku ? [] : [{ id: v.id, sku: v.sku, field: `variants.${i}.sku` }],
      );
      await claimSkus(
        trx,
        storeId,
        renamed,
        form.variants.map((v) => v.id),
      );

      await trx
        .updateTable('products')
        .set({ option_names: JSON.stringify(form.option_names) })
        .where('id', '=', productId)
        .execute();
      // Out of the way first: two variants trading SKUs would otherwise meet the product's unique SKUs.
      for (const { id } of renamed)
        await trx
          .updateTable('product_variants')
          .set({ sku: sql<string>`'\u{1F}' || id` })
          .where('id', '=', id)
          .execute();
      for (const variant of form.variants) {
        const was = current.get(variant.id)!;
        const options = JSON.stringify(variant.options);
        if (variant.sku === was.sku && variant.name === was.name && options === JSON.stringify(was.options)) continue;
        // The listing columns follow by trigger (migration 0015), the version by migration 0024's.
        await trx
          .updateTable('product_variants')
          .set({ sku: variant.sku, name: variant.name, options })
          .where('id', '=', variant.id)
          .execute();
      }
      await refreshSearchText(trx, storeId, { productId });
      const after = (await productAnswer(trx, storeId, productId))!;
      await auditChange(trx, c.var, now, {
        action: 'product.variants_update',
        entity: 'product',
        entityId: String(productId),
        before: variantsOf(before),
        after: variantsOf(after),
      });
    });
    return c.json({ data: (await productAnswer(db, storeId, productId))! });
  });

  app.post('/', async (c) => {
    const productId = intId(c.req.param('id'));
    const form = await readJson(c, variantAddPayload);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    await catalogWrite(deps, c, async (trx) => {
      const { option_names: optionNames } = await lockProductAt(trx, storeId, productId, form.version);
      const problems = Object.entries(optionProblems(optionNames, form.options));
      if (problems.length > 0) throw invalid(Object.fromEntries(problems.map(([name, m]) => [`options.${name}`, [m]])));
      const before = (await productAnswer(trx, storeId, productId))!;
      const twin = before.variants.find((v) => sameCombination(optionNames, v.options, form.options));
      if (twin) throw invalidField('options', VARIANT_MESSAGES.sameValues(twin.sku));
      await claimSkus(trx, storeId, [{ sku: form.sku, field: 'sku' }], []);

      const last = await trx
        .selectFrom('product_variants')
        .select(sql<number>`coalesce(max(position), -1)::int`.as('position'))
        .where('product_id', '=', productId)
        .executeTakeFirstOrThrow();
      const added = await trx
        .insertInto('product_variants')
        .values({
          product_id: productId,
          store_id: storeId,
          sku: form.sku,
          name: form.name,
          options: JSON.stringify(form.options),
          price_cents: form.price,
          stock: form.stock,
          position: last.position + 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Stock moves by logged adjustments (docs/decisions/199-console-catalog-and-gift-cards.md), the first one too.
      if (form.stock > 0)
        await trx
          .insertInto('stock_adjustments')
          .values({
            store_id: storeId,
            product_id: productId,
            variant_id: added.id,
            delta: form.stock,
            stock_after: form.stock,
            reason: 'received',
            note: VARIANT_ROUTE_MESSAGES.startingStock,
            operator_id: c.var.session.operatorId,
            actor: c.var.session.email,
            at: now,
          })
          .execute();
      await bumpVersion(trx, productId);
      await refreshSearchText(trx, storeId, { productId });
      await auditChange(trx, c.var, now, {
        action: 'product.variant_add',
        entity: 'product_variant',
        entityId: String(added.id),
        before: null,
        after: {
          sku: form.sku,
          name: form.name,
          options: form.options,
          price: centsToDecimal(form.price),
          stock: form.stock,
        },
      });
    });
    return c.json({ data: (await productAnswer(db, storeId, productId))! }, 201);
  });

  app.delete('/:variantId', async (c) => {
    const productId = intId(c.req.param('id'));
    const variantId = intId(c.req.param('variantId'));
    const { version } = readQuery(c, variantRemovalQuery);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    let outcome: 'deleted' | 'deactivated' = 'deleted';
    await catalogWrite(deps, c, async (trx) => {
      await lockProductAt(trx, storeId, productId, version);
      const before = (await productAnswer(trx, storeId, productId))!;
      const variant = before.variants.find((v) => v.id === String(variantId));
      if (!variant) throw notFound();
      if (before.variants.length === 1) throw conflict(VARIANT_ROUTE_MESSAGES.lastVariant);
      const bundles = await trx
        .selectFrom('bundle_items as bi')
        .innerJoin('bundles as b', 'b.id', 'bi.bundle_id')
        .select('b.name')
        .where('bi.product_variant_id', '=', variantId)
        .orderBy('b.name')
        .execute();
      if (bundles.length > 0)
        throw conflict(VARIANT_ROUTE_MESSAGES.inBundles([...new Set(bundles.map((b) => b.name))].join(', ')));
      // Locked before looking: a checkout taking its stock or a cart adding it (a foreign key's share lock)
      // waits for this transaction, or has committed and is seen below.
      const { stock } = await trx
        .selectFrom('product_variants')
        .select('stock')
        .where('id', '=', variantId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      // Orders keep their variant's id (their lines, a refund's restock, the console's SKU column); a
      // cart's line would vanish with it. Either way the row stays, off sale.
      const { rows } = await sql<{ named: boolean }>`select
          exists (select 1 from cart_lines where product_variant_id = ${variantId})
          or exists (
            select 1 from orders o cross join lateral jsonb_array_elements(o.details -> 'cartItems') item
            where o.store_id = ${storeId} and item -> 'product_details' ->> 'product_variant_id' = ${String(variantId)}
          ) as named`.execute(trx);
      if (rows[0]?.named) {
        outcome = 'deactivated';
        await trx
          .updateTable('product_variants')
          .set({ deactivated_at: now, stock: 0 })
          .where('id', '=', variantId)
          .execute();
        if (stock > 0)
          await trx
            .insertInto('stock_adjustments')
            .values({
              store_id: storeId,
              product_id: productId,
              variant_id: variantId,
              delta: -stock,
              stock_after: 0,
              reason: 'other',
              note: VARIANT_ROUTE_MESSAGES.takenOffSale,
              operator_id: c.var.session.operatorId,
              actor: c.var.session.email,
              at: now,
            })
            .execute();
        // Migration 0015's triggers follow prices and options, not a variant leaving the sale.
        await sql`select refresh_product_listing(array[${productId}]::integer[])`.execute(trx);
      } else {
        await trx.deleteFrom('product_variants').where('id', '=', variantId).execute();
        await bumpVersion(trx, productId);
      }
      await refreshSearchText(trx, storeId, { productId });
      await auditChange(trx, c.var, now, {
        action: 'product.variant_remove',
        entity: 'product_variant',
        entityId: String(variantId),
        before: {
          sku: variant.sku,
          name: variant.name,
          options: variant.options,
          price: variant.price,
          stock,
        },
        after: { outcome },
      });
    });
    return c.json({ data: (await productAnswer(db, storeId, productId))!, meta: { outcome } });
  });

  // A deactivated variant back on sale, with no stock (stock comes by a logged adjustment), when it still
  // fits the product: its options may have been renamed or given to another variant since.
  app.post('/:variantId/restore', async (c) => {
    const productId = intId(c.req.param('id'));
    const variantId = intId(c.req.param('variantId'));
    const { version } = await readJson(c, productRestorePayload);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    await catalogWrite(deps, c, async (trx) => {
      const { option_names: optionNames } = await lockProductAt(trx, storeId, productId, version);
      const variant = await trx
        .selectFrom('product_variants')
        .select(['sku', 'options', 'deactivated_at'])
        .where('id', '=', variantId)
        .where('product_id', '=', productId)
        .executeTakeFirst();
      if (!variant) throw notFound();
      if (variant.deactivated_at === null) throw conflict(VARIANT_ROUTE_MESSAGES.onSale);
      if (Object.keys(optionProblems(optionNames, variant.options)).length > 0)
        throw conflict(VARIANT_ROUTE_MESSAGES.optionsChanged(variant.sku));
      const before = (await productAnswer(trx, storeId, productId))!;
      const twin = before.variants.find((v) => sameCombination(optionNames, v.options, variant.options));
      if (twin) throw conflict(VARIANT_MESSAGES.sameValues(twin.sku));
      await claimSkus(trx, storeId, [{ sku: variant.sku, field: 'sku' }], [variantId]);
      await trx.updateTable('product_variants').set({ deactivated_at: null }).where('id', '=', variantId).execute();
      // Migration 0015's triggers follow prices and options, not a variant coming back to the sale.
      await sql`select refresh_product_listing(array[${productId}]::integer[])`.execute(trx);
      await bumpVersion(trx, productId);
      await refreshSearchText(trx, storeId, { productId });
      await auditChange(trx, c.var, now, {
        action: 'product.variant_restore',
        entity: 'product_variant',
        entityId: String(variantId),
        before: { sku: variant.sku, outcome: 'deactivated' },
        after: { outcome: 'on sale', stock: 0 },
      });
    });
    return c.json({ data: (await productAnswer(db, storeId, productId))! });
  });

  return app;
}
