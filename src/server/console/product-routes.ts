/**
 * The console's products (docs/decisions/199-console-catalog-and-gift-cards.md): the list, the edit
 * form (optimistic concurrency by `products.version`) and stock adjustments (relative, logged, never
 * below zero). Owners and editors alike. Prices and stock reach the storefront as the import's changes
 * do: the listing columns follow by trigger (migration 0015), the catalog answers by their ETags; this
 * instance's listing index is forgotten (docs/decisions/206-console-collections-and-bundles.md).
 */
import { Hono } from 'hono';
import { sql, type Kysely } from 'kysely';
import type { ConsoleProduct, ConsoleProductSummary } from '../../lib/contract/answers.ts';
import { centsToDecimal } from '../../lib/money.ts';
import { consoleProductsQuery, productEditPayload, stockAdjustmentPayload } from '../../lib/contract/payloads.ts';
import { sanitizeDescription } from '../catalog/import.ts';
import { escapeLike } from '../catalog/queries.ts';
import { refreshSearchText } from '../catalog/search-text.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { invalidField, notFound } from '../http/errors.ts';
import { intId, readJson, readQuery } from '../http/validation.ts';
import { auditChange } from './audit-change.ts';
import { catalogWrite, found, lockVersion } from './catalog-writes.ts';
import type { ConsoleEnv } from './routes.ts';

type Db = Kysely<Database>;

const PAGE_SIZE = 25;
/** The stock log shows this many of the newest adjustments. */
const LOG_SIZE = 50;

export const PRODUCT_MESSAGES = {
  stale:
    'Someone else saved this product after you opened it. Reload the page to see their changes, then make yours again.',
  unknownVariant: 'This variant is not one of the product’s.',
  belowZero: (stock: number) =>
    `Only ${stock} in stock: a change can take at most ${stock} away (stock already sold is gone).`,
} as const;

/** The product as the edit page shows it, or null when the store has no such product. */
export async function productAnswer(db: Db, storeId: number, productId: number): Promise<ConsoleProduct | null> {
  const product = await db
    .selectFrom('products')
    .select(['id', 'name', 'description_html', 'featured', 'position', 'version', 'option_names', 'archived_at'])
    .where('id', '=', productId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  if (!product) return null;
  const [variants, adjustments] = await Promise.all([
    db
      .selectFrom('product_variants')
      .select(['id', 'sku', 'name', 'options', 'price_cents', 'stock', 'deactivated_at'])
      .where('product_id', '=', productId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('stock_adjustments as a')
      .innerJoin('product_variants as v', 'v.id', 'a.variant_id')
      .select([
        sql<string>`a.id::text`.as('id'),
        'a.variant_id',
        'v.sku',
        'a.delta',
        'a.stock_after',
        'a.reason',
        'a.note',
        'a.actor',
        'a.at',
      ])
      .where('a.product_id', '=', productId)
      .orderBy('a.id', 'desc')
      .limit(LOG_SIZE)
      .execute(),
  ]);
  return {
    id: String(product.id),
    name: product.name,
    description_html: product.description_html,
    featured: product.featured,
    position: product.position,
    version: product.version,
    option_names: product.option_names,
    archived_at: product.archived_at?.toISOString() ?? null,
    variants: variants
      .filter((v) => v.deactivated_at === null)
      .map((v) => ({
        id: String(v.id),
        sku: v.sku,
        name: v.name,
        options: v.options,
        price: centsToDecimal(v.price_cents),
        stock: v.stock,
      })),
    deactivated_variants: variants.flatMap((v) =>
      v.deactivated_at === null
        ? []
        : [{ id: String(v.id), sku: v.sku, name: v.name, deactivated_at: v.deactivated_at.toISOString() }],
    ),
    adjustments: adjustments.map((a) => ({
      id: a.id,
      variant_id: String(a.variant_id),
      sku: a.sku,
      change: a.delta,
      stock_after: a.stock_after,
      reason: a.reason,
      note: a.note,
      actor: a.actor,
      at: a.at.toISOString(),
    })),
  };
}

/**
 * Locks the store's product for a change made from the form opened at `version`: of two saves made from
 * one version, the second waits here, then sees the new one and is refused (409).
 */
export async function lockProductAt(trx: Db, storeId: number, productId: number, version: number) {
  await lockVersion(trx, 'products', { id: productId, storeId, version }, PRODUCT_MESSAGES.stale);
  return trx.selectFrom('products').select('option_names').where('id', '=', productId).executeTakeFirstOrThrow();
}

/** `…/stores/{slug}/products…` of the console API. */
export function consoleProductRoutes(deps: AppDeps) {
  const { db } = deps;
  const app = new Hono<ConsoleEnv>();

  app.get('/', async (c) => {
    const { q, page } = readQuery(c, consoleProductsQuery);
    const { id: storeId, low_stock_threshold: threshold } = c.var.consoleStore;
    // `%`, `_` and `\` typed in the search box are matched as themselves.
    const pattern = `%${escapeLike(q)}%`;
    const matching = db
      .selectFrom('products as p')
      .where('p.store_id', '=', storeId)
      .$if(q !== '', (qb) =>
        qb.where((eb) =>
          eb.or([
            eb('p.name', 'ilike', pattern),
            eb.exists(
              eb
                .selectFrom('product_variants as v')
                .select('v.id')
                .whereRef('v.product_id', '=', 'p.id')
                .where('v.sku', 'ilike', pattern),
            ),
          ]),
        ),
      );
    const [rows, total] = await Promise.all([
      matching
        .select([
          'p.id',
          'p.name',
          'p.featured',
          'p.position',
          'p.listed_price_cents',
          'p.archived_at',
          sql<number>`(select coalesce(sum(v.stock), 0) from product_variants v where v.product_id = p.id and v.deactivated_at is null)`.as(
            'stock',
          ),
          sql<
            { id: number; sku: string; name: string }[]
          >`coalesce((select json_agg(json_build_object('id', v.id, 'sku', v.sku, 'name', v.name) order by v.position, v.id) from product_variants v where v.product_id = p.id and v.deactivated_at is null), '[]')`.as(
            'variants',
          ),
          // A variant at or below the store's threshold, sold out included (a threshold of 0 flags nothing).
          sql<boolean>`(${threshold} > 0 and exists (select 1 from product_variants v where v.product_id = p.id and v.deactivated_at is null and v.stock <= ${threshold}))`.as(
            'low_stock',
          ),
        ])
        .orderBy('p.position')
        .orderBy('p.id')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute(),
      matching.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    ]);
    const data: ConsoleProductSummary[] = rows.map((row) => ({
      id: String(row.id),
      name: row.name,
      skus: row.variants.map((v) => v.sku),
      price: centsToDecimal(row.listed_price_cents),
      stock: row.stock,
      featured: row.featured,
      position: row.position,
      low_stock: row.low_stock,
      variants: row.variants.map((v) => ({ id: String(v.id), sku: v.sku, name: v.name })),
      archived: row.archived_at !== null,
    }));
    return c.json({ data, meta: { total: total.total, page, perPage: PAGE_SIZE } });
  });

  app.get('/:id', async (c) => c.json(found(await productAnswer(db, c.var.consoleStore.id, intId(c.req.param('id'))))));

  app.patch('/:id', async (c) => {
    const productId = intId(c.req.param('id'));
    const edit = await readJson(c, productEditPayload);
    // Name, featured flag, position and prices are what the shop's lists sort and filter by.
    await catalogWrite(deps, c, async (trx, { storeId, now }) => {
      await lockVersion(trx, 'products', { id: productId, storeId, version: edit.version }, PRODUCT_MESSAGES.stale);
      const before = (await productAnswer(trx, storeId, productId))!;
      const unknown = edit.variants.findIndex((v) => !before.variants.some((known) => known.id === String(v.id)));
      if (unknown >= 0) throw invalidField(`variants.${unknown}.id`, PRODUCT_MESSAGES.unknownVariant);

      const fields = {
        name: edit.name,
        description_html: sanitizeDescription(edit.description_html),
        featured: edit.featured,
        position: edit.position,
      };
      await trx
        .updateTable('products')
        .set((eb) => ({ ...fields, version: eb('version', '+', 1) }))
        .where('id', '=', productId)
        .execute();
      const pricesBefore = new Map(before.variants.map((v) => [v.id, v.price]));
      for (const variant of edit.variants) {
        if (pricesBefore.get(String(variant.id)) === centsToDecimal(variant.price)) continue;
        // The listing columns follow by trigger (migration 0015), as for the import's writes.
        await trx
          .updateTable('product_variants')
          .set({ price_cents: variant.price })
          .where('id', '=', variant.id)
          .where('product_id', '=', productId)
          .execute();
      }
      if (fields.name !== before.name || fields.description_html !== before.description_html)
        await refreshSearchText(trx, storeId, { productId });

      const after = (await productAnswer(trx, storeId, productId))!;
      const formOf = (p: ConsoleProduct) => ({
        name: p.name,
        description_html: p.description_html,
        featured: p.featured,
        position: p.position,
        prices: Object.fromEntries(p.variants.map((v) => [v.sku, v.price])),
      });
      await auditChange(trx, c.var, now, {
        action: 'product.update',
        entity: 'product',
        entityId: String(productId),
        before: formOf(before),
        after: formOf(after),
      });
    });
    return c.json({ data: (await productAnswer(db, c.var.consoleStore.id, productId))! });
  });

  app.post('/:id/stock_adjustments', async (c) => {
    const productId = intId(c.req.param('id'));
    const { variant_id: variantId, change, reason, note } = await readJson(c, stockAdjustmentPayload);
    await catalogWrite(deps, c, async (trx, { storeId, now }) => {
      const product = await trx
        .selectFrom('products')
        .select('id')
        .where('id', '=', productId)
        .where('store_id', '=', storeId)
        .executeTakeFirst();
      if (!product) throw notFound();
      // Relative and conditional, like checkout taking stock: two adjustments at once both count, and
      // none takes the stock below zero, i.e. below what orders have already taken.
      const moved = await trx
        .updateTable('product_variants')
        .set((eb) => ({ stock: eb('stock', '+', change) }))
        .where('id', '=', variantId)
        .where('product_id', '=', productId)
        .where('deactivated_at', 'is', null)
        .where('stock', '>=', -change)
        .returning(['sku', 'stock'])
        .executeTakeFirst();
      if (!moved) {
        const variant = await trx
          .selectFrom('product_variants')
          .select('stock')
          .where('id', '=', variantId)
          .where('product_id', '=', productId)
          .where('deactivated_at', 'is', null)
          .executeTakeFirst();
        if (!variant) throw invalidField('variant_id', PRODUCT_MESSAGES.unknownVariant);
        throw invalidField('change', PRODUCT_MESSAGES.belowZero(variant.stock));
      }
      await trx
        .insertInto('stock_adjustments')
        .values({
          store_id: storeId,
          product_id: productId,
          variant_id: variantId,
          delta: change,
          stock_after: moved.stock,
          reason,
          note,
          operator_id: c.var.session.operatorId,
          actor: c.var.session.email,
          at: now,
        })
        .execute();
      await auditChange(trx, c.var, now, {
        action: 'product.stock_adjust',
        entity: 'product_variant',
        entityId: String(variantId),
        before: { sku: moved.sku, stock: moved.stock - change },
        after: { sku: moved.sku, stock: moved.stock, change, reason, note },
      });
    });
    return c.json({ data: (await productAnswer(db, c.var.consoleStore.id, productId))! }, 201);
  });

  return app;
}
