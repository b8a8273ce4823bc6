/**
 * The console's bundles (docs/decisions/206-console-collections-and-bundles.md): the list (searched by
 * name), create, the edit form with its items (variants of the store with quantities; optimistic
 * concurrency by `bundles.version`), and delete, refused with 409 once an order holds the bundle. A
 * bundle's price is its items' prices times their quantities, kept by migration 0015's triggers.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { sql, type Kysely } from 'kysely';
import type { ConsoleBundle, ConsoleBundleSummary } from '../../lib/contract/answers.ts';
import { centsToDecimal } from '../../lib/money.ts';
import { bundleCreatePayload, bundleEditPayload, consoleBundlesQuery } from '../../lib/contract/payloads.ts';
import { sanitizeDescription } from '../catalog/import.ts';
import { escapeLike } from '../catalog/queries.ts';
import { refreshSearchText } from '../catalog/search-text.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, invalid, notFound } from '../http/errors.ts';
import { intId, readJson, readQuery } from '../http/validation.ts';
import { auditChange } from './audit-change.ts';
import { followBundleItems } from '../carts/cart-changes.ts';
import { catalogWrite, found, lockVersion } from './catalog-writes.ts';
import type { ConsoleEnv } from './routes.ts';

/** The bundle list's page, as the product list's. */
const PAGE_SIZE = 25;

type Db = Kysely<Database>;

export const BUNDLE_MESSAGES = {
  stale:
    'Someone else saved this bundle after you opened it. Reload the page to see their changes, then make yours again.',
  unknownVariant: 'This variant is not one of the store’s.',
  ordered: (orders: number) =>
    `This bundle is in ${orders === 1 ? 'an order' : `${orders} orders`}, which keep${orders === 1 ? 's' : ''} its record: it cannot be deleted. Take it out of its collections and unfeature it instead.`,
  deleted: 'The bundle is deleted.',
} as const;

/** How many of the store's orders hold the bundle (orders keep their lines in `details`, ADR 198). */
async function ordersHolding(db: Db, storeId: number, bundleId: number): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select(sql<number>`count(*)::int`.as('orders'))
    .where('store_id', '=', storeId)
    .where(sql<boolean>`details->'cartItems' @> ${JSON.stringify([{ bundle_id: String(bundleId) }])}::jsonb`)
    .executeTakeFirstOrThrow();
  return row.orders;
}

async function bundleAnswer(db: Db, storeId: number, id: number): Promise<ConsoleBundle | null> {
  const row = await db
    .selectFrom('bundles')
    .select(['id', 'name', 'description_html', 'featured', 'position', 'version', 'listed_price_cents'])
    .where('id', '=', id)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  if (!row) return null;
  const [items, orders] = await Promise.all([
    db
      .selectFrom('bundle_items as bi')
      .innerJoin('product_variants as v', 'v.id', 'bi.product_variant_id')
      .innerJoin('products as p', 'p.id', 'v.product_id')
      .select([
        'v.id as variant_id',
        'p.id as product_id',
        'v.sku',
        'p.name as product_name',
        'v.name as variant_name',
        'bi.quantity',
        'v.price_cents',
      ])
      .where('bi.bundle_id', '=', id)
      .orderBy('bi.position')
      .orderBy('bi.id')
      .execute(),
    ordersHolding(db, storeId, id),
  ]);
  return {
    id: String(row.id),
    name: row.name,
    description_html: row.description_html,
    featured: row.featured,
    position: row.position,
    version: row.version,
    price: centsToDecimal(row.listed_price_cents),
    items: items.map((item) => ({
      variant_id: String(item.variant_id),
      product_id: String(item.product_id),
      sku: item.sku,
      product_name: item.product_name,
      variant_name: item.variant_name,
      quantity: item.quantity,
      price: centsToDecimal(item.price_cents * item.quantity),
    })),
    orders,
  };
}

const formOf = (b: ConsoleBundle) => ({
  name: b.name,
  description_html: b.description_html,
  featured: b.featured,
  position: b.position,
  items: b.items.map((item) => `${item.quantity} × ${item.sku}`),
});

type Items = { variant_id: number; quantity: number }[];

/** Replaces a bundle's items, every variant checked to be the store's first (422 next to the item). */
async function writeItems(trx: Db, storeId: number, bundleId: number, items: Items): Promise<void> {
  const variants = await trx
    .selectFrom('product_variants')
    .select('id')
    .where('store_id', '=', storeId)
    .where(
      'id',
      'in',
      items.map((item) => item.variant_id),
    )
    .execute();
  const known = new Set(variants.map((v) => v.id));
  const errors: Record<string, string[]> = {};
  for (const [i, item] of items.entries())
    if (!known.has(item.variant_id)) errors[`items.${i}.variant_id`] = [BUNDLE_MESSAGES.unknownVariant];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  // The listing columns (price, stock, options) follow by migration 0015's triggers on bundle_items.
  await trx.deleteFrom('bundle_items').where('bundle_id', '=', bundleId).execute();
  await trx
    .insertInto('bundle_items')
    .values(
      items.map((item, position) => ({
        bundle_id: bundleId,
        product_variant_id: item.variant_id,
        quantity: item.quantity,
        position,
      })),
    )
    .execute();
}

/** `…/stores/{slug}/bundles…` of the console API. */
export function consoleBundleRoutes(deps: AppDeps) {
  const { db } = deps;
  const app = new Hono<ConsoleEnv>();

  app.get('/', async (c) => {
    const { q, page } = readQuery(c, consoleBundlesQuery);
    const storeId = c.var.consoleStore.id;
    const matching = db
      .selectFrom('bundles as b')
      .where('b.store_id', '=', storeId)
      // `%`, `_` and `\` typed in the search box are matched as themselves.
      .$if(q !== '', (qb) => qb.where('b.name', 'ilike', `%${escapeLike(q)}%`));
    const [rows, total] = await Promise.all([
      matching
        .select(['b.id', 'b.name', 'b.listed_price_cents', 'b.item_count', 'b.featured', 'b.position'])
        .orderBy('b.position')
        .orderBy('b.id')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute(),
      matching.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    ]);
    const data: ConsoleBundleSummary[] = rows.map((row) => ({
      id: String(row.id),
      name: row.name,
      price: centsToDecimal(row.listed_price_cents),
      items: row.item_count,
      featured: row.featured,
      position: row.position,
    }));
    return c.json({ data, meta: { total: total.total, page, perPage: PAGE_SIZE } });
  });

  app.post('/', async (c) => {
    const fields = await readJson(c, bundleCreatePayload);
    const id = await catalogWrite(deps, c, async (trx, { storeId, now }) => {
      const last = await trx
        .selectFrom('bundles')
        .select(sql<number | null>`max(position)`.as('position'))
        .where('store_id', '=', storeId)
        .executeTakeFirst();
      const created = await trx
        .insertInto('bundles')
        .values({
          store_id: storeId,
          // The import's key for a bundle; one made here is named apart from any catalog file's ids.
          external_id: `console-${randomBytes(6).toString('hex')}`,
          name: fields.name,
          description_html: sanitizeDescription(fields.description_html),
          featured: fields.featured,
          position: fields.position ?? (last?.position ?? -1) + 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeItems(trx, storeId, created.id, fields.items);
      await refreshSearchText(trx, storeId, { bundleId: created.id });
      const after = (await bundleAnswer(trx, storeId, created.id))!;
      await auditChange(trx, c.var, now, {
        action: 'bundle.create',
        entity: 'bundle',
        entityId: String(created.id),
        before: null,
        after: formOf(after),
      });
      return created.id;
    });
    return c.json({ data: (await bundleAnswer(db, c.var.consoleStore.id, id))! }, 201);
  });

  app.get('/:id', async (c) => c.json(found(await bundleAnswer(db, c.var.consoleStore.id, intId(c.req.param('id'))))));

  app.patch('/:id', async (c) => {
    const id = intId(c.req.param('id'));
    const edit = await readJson(c, bundleEditPayload);
    await catalogWrite(deps, c, async (trx, { storeId, now }) => {
      await lockVersion(trx, 'bundles', { id, storeId, version: edit.version }, BUNDLE_MESSAGES.stale);
      const before = (await bundleAnswer(trx, storeId, id))!;
      await trx
        .updateTable('bundles')
        .set((eb) => ({
          name: edit.name,
          description_html: sanitizeDescription(edit.description_html),
          featured: edit.featured,
          position: edit.position,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', id)
        .execute();
      const itemsBefore = before.items.map((item) => `${item.variant_id}×${item.quantity}`).join();
      if (edit.items.map((item) => `${item.variant_id}×${item.quantity}`).join() !== itemsBefore) {
        await writeItems(trx, storeId, id, edit.items);
        await followBundleItems(trx, id);
      }
      await refreshSearchText(trx, storeId, { bundleId: id });
      const after = (await bundleAnswer(trx, storeId, id))!;
      await auditChange(trx, c.var, now, {
        action: 'bundle.update',
        entity: 'bundle',
        entityId: String(id),
        before: formOf(before),
        after: formOf(after),
      });
    });
    return c.json({ data: (await bundleAnswer(db, c.var.consoleStore.id, id))! });
  });

  app.delete('/:id', async (c) => {
    const id = intId(c.req.param('id'));
    await catalogWrite(deps, c, async (trx, { storeId, now }) => {
      // Locked, so an edit saved meanwhile waits for the delete and then finds nothing.
      const locked = await trx
        .selectFrom('bundles')
        .select('id')
        .where('id', '=', id)
        .where('store_id', '=', storeId)
        .forUpdate()
        .executeTakeFirst();
      if (!locked) throw notFound();
      const before = (await bundleAnswer(trx, storeId, id))!;
      if (before.orders > 0) throw conflict(BUNDLE_MESSAGES.ordered(before.orders));
      // Its items, its memberships and the cart lines holding it go with it (on delete cascade).
      await trx.deleteFrom('bundles').where('id', '=', id).execute();
      await auditChange(trx, c.var, now, {
        action: 'bundle.delete',
        entity: 'bundle',
        entityId: String(id),
        before: formOf(before),
        after: null,
      });
    });
    return c.json({ message: BUNDLE_MESSAGES.deleted });
  });

  return app;
}
