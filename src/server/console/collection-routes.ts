/**
 * The console's collections (docs/decisions/206-console-collections-and-bundles.md, ADR 190's model): the
 * list in the store's order, create, the edit form (optimistic concurrency by `collections.version`),
 * the members (products and bundles of the store, in the collection's order: one call adds, removes and
 * reorders) and delete, which takes the memberships only. Owners and editors alike.
 */
import { Hono } from 'hono';
import { sql, type Kysely } from 'kysely';
import type { ConsoleCollection, ConsoleCollectionSummary } from '../../lib/contract/answers.ts';
import { collectionCreatePayload, collectionEditPayload, collectionItemsPayload } from '../../lib/contract/payloads.ts';
import type { Database } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { invalid, invalidField } from '../http/errors.ts';
import { intId, readJson } from '../http/validation.ts';
import { auditChange } from './audit-change.ts';
import { catalogWrite, found, lockVersion } from './catalog-writes.ts';
import type { ConsoleEnv } from './routes.ts';

type Db = Kysely<Database>;

export const COLLECTION_MESSAGES = {
  stale:
    'Someone else saved this collection after you opened it. Reload the page to see their changes, then make yours again.',
  handleTaken: 'Another collection of this store has this handle.',
  unknownProduct: 'This product is not one of the store’s.',
  unknownBundle: 'This bundle is not one of the store’s.',
  deleted: 'The collection is deleted; its products and bundles are not.',
} as const;

/**
 * Serialises the handle check and the write of one store's collections (a transaction-scoped advisory
 * lock): two operators naming two collections alike at once get one 422, never a unique-index 500.
 */
const HANDLE_LOCK = 206_001;
const lockHandles = (trx: Db, storeId: number) =>
  sql`select pg_advisory_xact_lock(${HANDLE_LOCK}, ${storeId})`.execute(trx);

async function handleTaken(trx: Db, storeId: number, handle: string, exceptId?: number): Promise<boolean> {
  const row = await trx
    .selectFrom('collections')
    .select('id')
    .where('store_id', '=', storeId)
    .where('handle', '=', handle)
    .$if(exceptId !== undefined, (qb) => qb.where('id', '<>', exceptId!))
    .executeTakeFirst();
  return row !== undefined;
}

async function collectionAnswer(db: Db, storeId: number, id: number): Promise<ConsoleCollection | null> {
  const row = await db
    .selectFrom('collections')
    .select(['id', 'handle', 'title', 'description', 'position', 'version'])
    .where('id', '=', id)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  if (!row) return null;
  const items = await db
    .selectFrom('collection_items as ci')
    .leftJoin('products as p', 'p.id', 'ci.product_id')
    .leftJoin('bundles as b', 'b.id', 'ci.bundle_id')
    .select(['ci.product_id', 'ci.bundle_id', 'p.name as product_name', 'b.name as bundle_name'])
    .where('ci.collection_id', '=', id)
    .orderBy('ci.position')
    .orderBy('ci.id')
    .execute();
  return {
    id: String(row.id),
    handle: row.handle,
    title: row.title,
    description: row.description ?? '',
    position: row.position,
    version: row.version,
    items: items.map((item) =>
      item.product_id !== null
        ? { kind: 'product' as const, id: String(item.product_id), name: item.product_name ?? '' }
        : { kind: 'bundle' as const, id: String(item.bundle_id), name: item.bundle_name ?? '' },
    ),
  };
}

const formOf = (c: ConsoleCollection) => ({
  handle: c.handle,
  title: c.title,
  description: c.description,
  position: c.position,
});
const membersOf = (c: ConsoleCollection) => c.items.map((item) => `${item.kind}:${item.id} ${item.name}`);

/** `…/stores/{slug}/collections…` of the console API. */
export function consoleCollectionRoutes(deps: AppDeps) {
  const { db } = deps;
  const app = new Hono<ConsoleEnv>();

  app.get('/', async (c) => {
    const rows = await db
      .selectFrom('collections as c')
      .select([
        'c.id',
        'c.handle',
        'c.title',
        'c.position',
        sql<number>`(select count(*)::int from collection_items ci where ci.collection_id = c.id)`.as('items'),
      ])
      .where('c.store_id', '=', c.var.consoleStore.id)
      .orderBy('c.position')
      .orderBy('c.id')
      .execute();
    const data: ConsoleCollectionSummary[] = rows.map((row) => ({ ...row, id: String(row.id) }));
    return c.json({ data });
  });

  app.post('/', async (c) => {
    const fields = await readJson(c, collectionCreatePayload);
    const id = await catalogWrite(deps, c, async (trx, { storeId, now }) => {
      await lockHandles(trx, storeId);
      if (await handleTaken(trx, storeId, fields.handle)) throw invalidField('handle', COLLECTION_MESSAGES.handleTaken);
      // Without a position it goes after the store's last collection.
      const last = await trx
        .selectFrom('collections')
        .select(sql<number | null>`max(position)`.as('position'))
        .where('store_id', '=', storeId)
        .executeTakeFirst();
      const created = await trx
        .insertInto('collections')
        .values({
          store_id: storeId,
          handle: fields.handle,
          title: fields.title,
          description: fields.description || null,
          position: fields.position ?? (last?.position ?? -1) + 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const after = (await collectionAnswer(trx, storeId, created.id))!;
      await auditChange(trx, c.var, now, {
        action: 'collection.create',
        entity: 'collection',
        entityId: String(created.id),
        before: null,
        after: formOf(after),
      });
      return created.id;
    });
    return c.json({ data: (await collectionAnswer(db, c.var.consoleStore.id, id))! }, 201);
  });

  app.get('/:id', async (c) =>
    c.json(found(await collectionAnswer(db, c.var.consoleStore.id, intId(c.req.param('id'))))),
  );

  /** The collection as the form opened at `version` saw it, its row locked (409 at another version). */
  async function lockedAt(trx: Db, storeId: number, id: number, version: number): Promise<ConsoleCollection> {
    await lockVersion(trx, 'collections', { id, storeId, version }, COLLECTION_MESSAGES.stale);
    return (await collectionAnswer(trx, storeId, id))!;
  }

  app.patch('/:id', async (c) => {
    const id = intId(c.req.param('id'));
    const edit = await readJson(c, collectionEditPayload);
    await catalogWrite(deps, c, async (trx, { storeId, now }) => {
      await lockHandles(trx, storeId);
      const before = await lockedAt(trx, storeId, id, edit.version);
      if (await handleTaken(trx, storeId, edit.handle, id))
        throw invalidField('handle', COLLECTION_MESSAGES.handleTaken);
      await trx
        .updateTable('collections')
        .set((eb) => ({
          handle: edit.handle,
          title: edit.title,
          description: edit.description || null,
          position: edit.position,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', id)
        .execute();
      const after = (await collectionAnswer(trx, storeId, id))!;
      await auditChange(trx, c.var, now, {
        action: 'collection.update',
        entity: 'collection',
        entityId: String(id),
        before: formOf(before),
        after: formOf(after),
      });
    });
    return c.json({ data: (await collectionAnswer(db, c.var.consoleStore.id, id))! });
  });

  app.put('/:id/items', async (c) => {
    const id = intId(c.req.param('id'));
    const { version, items } = await readJson(c, collectionItemsPayload);
    await catalogWrite(deps, c, async (trx, { storeId, now }) => {
      const before = await lockedAt(trx, storeId, id, version);
      const ids = (kind: 'product_id' | 'bundle_id') => items.flatMap((item) => (item[kind] ? [item[kind]] : []));
      const [products, bundles] = await Promise.all([
        ids('product_id').length === 0
          ? []
          : trx
              .selectFrom('products')
              .select('id')
              .where('store_id', '=', storeId)
              .where('id', 'in', ids('product_id'))
              .execute(),
        ids('bundle_id').length === 0
          ? []
          : trx
              .selectFrom('bundles')
              .select('id')
              .where('store_id', '=', storeId)
              .where('id', 'in', ids('bundle_id'))
              .execute(),
      ]);
      const known = new Set([...products.map((p) => `p${p.id}`), ...bundles.map((b) => `b${b.id}`)]);
      const errors: Record<string, string[]> = {};
      for (const [i, item] of items.entries()) {
        if (item.product_id !== undefined && !known.has(`p${item.product_id}`))
          errors[`items.${i}.product_id`] = [COLLECTION_MESSAGES.unknownProduct];
        if (item.bundle_id !== undefined && !known.has(`b${item.bundle_id}`))
          errors[`items.${i}.bundle_id`] = [COLLECTION_MESSAGES.unknownBundle];
      }
      if (Object.keys(errors).length > 0) throw invalid(errors);

      await trx.deleteFrom('collection_items').where('collection_id', '=', id).execute();
      if (items.length > 0)
        await trx
          .insertInto('collection_items')
          .values(
            items.map((item, position) => ({
              collection_id: id,
              product_id: item.product_id ?? null,
              bundle_id: item.bundle_id ?? null,
              position,
            })),
          )
          .execute();
      const after = (await collectionAnswer(trx, storeId, id))!;
      await auditChange(trx, c.var, now, {
        action: 'collection.items',
        entity: 'collection',
        entityId: String(id),
        before: { handle: before.handle, items: membersOf(before) },
        after: { handle: after.handle, items: membersOf(after) },
      });
    });
    return c.json({ data: (await collectionAnswer(db, c.var.consoleStore.id, id))! });
  });

  app.delete('/:id', async (c) => {
    const collectionId = intId(c.req.param('id'));
    await catalogWrite(deps, c, async (trx, { storeId, now }) => {
      const { data: before } = found(await collectionAnswer(trx, storeId, collectionId));
      // Its memberships go with it (on delete cascade); the products and bundles stay.
      await trx.deleteFrom('collections').where('id', '=', collectionId).where('store_id', '=', storeId).execute();
      await auditChange(trx, c.var, now, {
        action: 'collection.delete',
        entity: 'collection',
        entityId: String(collectionId),
        before: { ...formOf(before), items: membersOf(before) },
        after: null,
      });
    });
    return c.json({ message: COLLECTION_MESSAGES.deleted });
  });

  return app;
}
