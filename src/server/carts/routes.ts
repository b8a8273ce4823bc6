import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { bundleLines, MAX_QUANTITY } from '../domain/cart-math.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { invalidField, notFound } from '../http/errors.ts';
import { readJson, uuidId } from '../http/validation.ts';
import { addVariantToCart, cartAnswer, cartToken, lockOrCreateCart, touchCart, upsertTouchedCart } from './cart-service.ts';
import { addLineSchema, addressSchema, changeQuantitySchema } from './payloads.ts';

type Db = Kysely<Database>;

const TOO_MANY = `You can have at most ${MAX_QUANTITY} of an item in your cart.`;

const onlyLeft = (stock: number, name: string) => invalidField('quantity', `Only ${stock} of ${name} left in stock.`);

function checkStock(stock: number, quantity: number, name: string) {
  if (stock <= 0) throw invalidField('quantity', `${name} is out of stock.`);
  if (quantity > stock) throw onlyLeft(stock, name);
}

/** Sets a bundle's quantity in the cart: every line of it becomes item quantity × bundle quantity. */
async function setBundleQuantity(trx: Db, cartId: string, bundleId: number, bundleQuantity: number) {
  const lines = await trx
    .selectFrom('cart_lines as l')
    .innerJoin('product_variants as v', 'v.id', 'l.product_variant_id')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select(['l.id', 'l.quantity', 'l.bundle_quantity', 'v.stock', 'p.name'])
    .where('l.cart_id', '=', cartId)
    .where('l.bundle_id', '=', bundleId)
    .execute();
  for (const line of lines) {
    const perBundle = line.quantity / (line.bundle_quantity ?? 1);
    checkStock(line.stock, perBundle * bundleQuantity, line.name);
    await trx.updateTable('cart_lines').set({ quantity: perBundle * bundleQuantity, bundle_quantity: bundleQuantity }).where('id', '=', line.id).execute();
  }
}

/** `…/cart` (GET, PUT address) and `…/cart/cart_line_items` (POST, PATCH, DELETE). */
export function cartRoutes({ db, clock }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => c.json(await cartAnswer(db, c.var.store, cartToken(c), clock.now())));

  app.put('/', async (c) => {
    const store = c.var.store;
    const token = cartToken(c);
    const { cart: address } = await readJson(c, addressSchema, { wrapper: 'cart' });
    await db.transaction().execute(async (trx) => {
      const cart = await lockOrCreateCart(trx, store.id, token);
      await trx.updateTable('carts').set({ address: JSON.stringify(address), updated_at: clock.now() }).where('id', '=', cart.id).execute();
    });
    return c.json(await cartAnswer(db, store, token, clock.now()));
  });

  app.post('/cart_line_items', async (c) => {
    const store = c.var.store;
    const token = cartToken(c);
    const { cart_line_item: item } = await readJson(c, addLineSchema, { wrapper: 'cart_line_item' });
    if (item.product_variant_id !== undefined) {
      // One statement, no transaction: it checks the limits itself and writes nothing when they refuse.
      const added = await addVariantToCart(db, store.id, token, item.product_variant_id, item.quantity, clock.now());
      if (added.kind === 'no-such-variant') throw notFound();
      if (added.kind === 'refused') {
        if (added.wanted > MAX_QUANTITY) throw invalidField('quantity', TOO_MANY);
        checkStock(added.stock, added.wanted, added.name);
        // Stock and limit allow it now (a concurrent change was undone meanwhile): the shopper may retry.
        throw onlyLeft(added.stock, added.name);
      }
      return c.json(await cartAnswer(db, store, token, clock.now(), added.cart), 201);
    }
    // The cart row as the transaction wrote it: the answer needs no second read of it.
    const cart = await db.transaction().execute(async (trx) => {
      const bundleId = item.bundle_id!;
      const bundle = await trx.selectFrom('bundles').select('id').where('id', '=', bundleId).where('store_id', '=', store.id).executeTakeFirst();
      if (!bundle) throw notFound();
      const items = await trx
        .selectFrom('bundle_items as bi')
        .innerJoin('product_variants as v', 'v.id', 'bi.product_variant_id')
        .innerJoin('products as p', 'p.id', 'v.product_id')
        .select(['bi.product_variant_id', 'bi.quantity', 'v.stock', 'p.name'])
        .where('bi.bundle_id', '=', bundle.id)
        .orderBy('bi.position')
        .orderBy('bi.id')
        .execute();
      if (items.length === 0) throw invalidField('bundle_id', 'This bundle has no items.');
      const cart = await upsertTouchedCart(trx, store.id, token, clock.now());
      const existing = await trx
        .selectFrom('cart_lines')
        .select('bundle_quantity')
        .where('cart_id', '=', cart.id)
        .where('bundle_id', '=', bundle.id)
        .executeTakeFirst();
      const bundleQuantity = (existing?.bundle_quantity ?? 0) + item.quantity;
      if (bundleQuantity > MAX_QUANTITY) throw invalidField('quantity', TOO_MANY);
      if (existing) {
        await setBundleQuantity(trx, cart.id, bundle.id, bundleQuantity);
      } else {
        for (const i of items) checkStock(i.stock, i.quantity * bundleQuantity, i.name);
        const lines = bundleLines(bundle.id, items.map((i) => ({ productVariantId: i.product_variant_id, quantity: i.quantity })), bundleQuantity);
        await trx
          .insertInto('cart_lines')
          .values(lines.map((l, position) => ({ id: randomUUID(), cart_id: cart.id, product_variant_id: l.productVariantId, bundle_id: l.bundleId, bundle_quantity: l.bundleQuantity, quantity: l.quantity, position })))
          .execute();
      }
      return cart;
    });
    return c.json(await cartAnswer(db, store, token, clock.now(), cart), 201);
  });

  app.patch('/cart_line_items/:id', async (c) => {
    const store = c.var.store;
    const lineId = uuidId(c.req.param('id'));
    const token = cartToken(c);
    const { cart_line_item: change } = await readJson(c, changeQuantitySchema, { wrapper: 'cart_line_item' });
    const cart = await db.transaction().execute(async (trx) => {
      const cart = await touchCart(trx, store.id, token, clock.now());
      if (!cart) throw notFound();
      const line = await trx
        .selectFrom('cart_lines as l')
        .innerJoin('product_variants as v', 'v.id', 'l.product_variant_id')
        .innerJoin('products as p', 'p.id', 'v.product_id')
        .select(['l.id', 'l.bundle_id', 'v.stock', 'p.name'])
        .where('l.id', '=', lineId)
        .where('l.cart_id', '=', cart.id)
        .executeTakeFirst();
      if (!line) throw notFound();
      if (line.bundle_id !== null) {
        await setBundleQuantity(trx, cart.id, line.bundle_id, change.quantity);
      } else {
        checkStock(line.stock, change.quantity, line.name);
        await trx.updateTable('cart_lines').set({ quantity: change.quantity }).where('id', '=', line.id).execute();
      }
      return cart;
    });
    return c.json(await cartAnswer(db, store, token, clock.now(), cart));
  });

  app.delete('/cart_line_items/:id', async (c) => {
    const store = c.var.store;
    const lineId = uuidId(c.req.param('id'));
    const token = cartToken(c);
    const cart = await db.transaction().execute(async (trx) => {
      const cart = await touchCart(trx, store.id, token, clock.now());
      if (!cart) throw notFound();
      const line = await trx.selectFrom('cart_lines').select(['id', 'bundle_id']).where('id', '=', lineId).where('cart_id', '=', cart.id).executeTakeFirst();
      if (!line) throw notFound();
      // A bundle is one thing to the shopper: removing any of its lines removes all of them.
      if (line.bundle_id !== null) await trx.deleteFrom('cart_lines').where('cart_id', '=', cart.id).where('bundle_id', '=', line.bundle_id).execute();
      else await trx.deleteFrom('cart_lines').where('id', '=', line.id).execute();
      return cart;
    });
    return c.json(await cartAnswer(db, store, token, clock.now(), cart));
  });

  return app;
}
