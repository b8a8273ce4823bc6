import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Address } from '../../lib/contract/answers.ts';
import type { CartRow, Database } from '../db/schema.ts';
import { MAX_QUANTITY } from '../../lib/contract/limits.ts';
import { bundleLines } from '../domain/cart-math.ts';
import { firstShortfall, stockMessage } from '../domain/stock.ts';
import type { AppDeps } from '../http/context.ts';
import { invalidField, notFound } from '../http/errors.ts';
import { addVariantToCart, lockOrCreateCart, stockLinesOf, touchCart, upsertTouchedCart } from './cart-service.ts';

/**
 * The shopper's changes to a cart: address, lines added, quantities changed, lines removed. Each
 * answers the cart row as it wrote it (the answer needs no second read of it) or throws the
 * HttpError the shopper sees; a refusal inside a transaction rolls the whole change back.
 */

type Db = Kysely<Database>;
type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** Who is changing which cart: the store's id and the shopper's cart token. */
export type CartOwner = {
  storeId: number;
  token: string;
};

/** What `POST …/cart_line_items` adds: exactly one of a variant or a bundle. */
export type NewLine = { productVariantId: number; quantity: number } | { bundleId: number; quantity: number };

const TOO_MANY = `You can have at most ${MAX_QUANTITY} of an item in your cart.`;

const notInStock = (stock: number, name: string) => invalidField('quantity', stockMessage(stock, name));

/**
 * Refuses the change a transaction just wrote when the cart now wants more of one of these variants
 * than its stock: its own line plus its share of every bundle (docs/decisions/090). Throwing rolls
 * the whole change back. The cart row is locked first, so the lines read here are current.
 */
async function refuseBeyondStock(trx: Db, cartId: string, variantIds: readonly number[]) {
  const short = firstShortfall(await stockLinesOf(trx, cartId, variantIds));
  if (short) throw notInStock(short.stock, short.name);
}

/** Sets a bundle's quantity in the cart: every line of it becomes item quantity × bundle quantity. */
async function setBundleQuantity(trx: Db, cartId: string, bundleId: number, bundleQuantity: number) {
  const lines = await trx
    .updateTable('cart_lines')
    .set((eb) => ({
      quantity: sql<number>`${eb.ref('quantity')} / coalesce(${eb.ref('bundle_quantity')}, 1) * ${bundleQuantity}`,
      bundle_quantity: bundleQuantity,
    }))
    .where('cart_id', '=', cartId)
    .where('bundle_id', '=', bundleId)
    .returning('product_variant_id')
    .execute();
  await refuseBeyondStock(
    trx,
    cartId,
    lines.map((l) => l.product_variant_id),
  );
}

/** Stores the shipping address, creating the cart on first write. */
export async function setCartAddress({ db, clock }: Deps, owner: CartOwner, address: Address): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const cart = await lockOrCreateCart(trx, owner.storeId, owner.token);
    await trx
      .updateTable('carts')
      .set({ address: JSON.stringify(address), updated_at: clock.now() })
      .where('id', '=', cart.id)
      .execute();
  });
}

/** Adds a variant or a bundle within the 99 limit and the stock; 404 when the store has no such one. */
export async function addCartLine(deps: Deps, owner: CartOwner, line: NewLine): Promise<CartRow> {
  return 'productVariantId' in line
    ? addVariant(deps, owner, line.productVariantId, line.quantity)
    : addBundle(deps, owner, line.bundleId, line.quantity);
}

async function addVariant(
  { db, clock }: Deps,
  owner: CartOwner,
  variantId: number,
  quantity: number,
): Promise<CartRow> {
  // One statement, no transaction: it checks the limits itself and writes nothing when they refuse.
  const added = await addVariantToCart(db, owner.storeId, owner.token, variantId, quantity, clock.now());
  if (added.kind === 'no-such-variant') throw notFound();
  if (added.kind === 'refused') {
    if (added.wanted > MAX_QUANTITY) throw invalidField('quantity', TOO_MANY);
    // Past the stock, or (a concurrent change was undone meanwhile) within it now: the shopper may retry.
    throw notInStock(added.stock, added.name);
  }
  return added.cart;
}

async function addBundle({ db, clock }: Deps, owner: CartOwner, bundleId: number, quantity: number): Promise<CartRow> {
  return db.transaction().execute(async (trx) => {
    // Shared-locked: an operator's change of its items waits for this line, or this line for it
    // (followBundleItems then re-expands what was added before).
    const bundle = await trx
      .selectFrom('bundles')
      .select('id')
      .where('id', '=', bundleId)
      .where('store_id', '=', owner.storeId)
      .forShare()
      .executeTakeFirst();
    if (!bundle) throw notFound();
    const items = await bundleItemsOf(trx, bundle.id);
    if (items.length === 0) throw invalidField('bundle_id', 'This bundle has no items.');
    const cart = await upsertTouchedCart(trx, owner.storeId, owner.token, clock.now());
    const existing = await trx
      .selectFrom('cart_lines')
      .select('bundle_quantity')
      .where('cart_id', '=', cart.id)
      .where('bundle_id', '=', bundle.id)
      .executeTakeFirst();
    const bundleQuantity = (existing?.bundle_quantity ?? 0) + quantity;
    if (bundleQuantity > MAX_QUANTITY) throw invalidField('quantity', TOO_MANY);
    if (existing) {
      await setBundleQuantity(trx, cart.id, bundle.id, bundleQuantity);
    } else {
      await insertBundleLines(trx, cart.id, bundle.id, items, bundleQuantity);
      await refuseBeyondStock(
        trx,
        cart.id,
        items.map((i) => i.product_variant_id),
      );
    }
    return cart;
  });
}

type BundleItem = { product_variant_id: number; quantity: number };

function bundleItemsOf(trx: Db, bundleId: number): Promise<BundleItem[]> {
  return trx
    .selectFrom('bundle_items as bi')
    .select(['bi.product_variant_id', 'bi.quantity'])
    .where('bi.bundle_id', '=', bundleId)
    .orderBy('bi.position')
    .orderBy('bi.id')
    .execute();
}

/** A bundle's lines in a cart: one per item, item quantity × bundle quantity, in the bundle's item order. */
async function insertBundleLines(
  trx: Db,
  cartId: string,
  bundleId: number,
  items: readonly BundleItem[],
  bundleQuantity: number,
  createdAt?: Date,
): Promise<void> {
  const lines = bundleLines(
    bundleId,
    items.map((i) => ({ productVariantId: i.product_variant_id, quantity: i.quantity })),
    bundleQuantity,
  );
  await trx
    .insertInto('cart_lines')
    .values(
      lines.map((l, position) => ({
        id: randomUUID(),
        cart_id: cartId,
        product_variant_id: l.productVariantId,
        bundle_id: l.bundleId,
        bundle_quantity: l.bundleQuantity,
        quantity: l.quantity,
        position,
        ...(createdAt ? { created_at: createdAt } : {}),
      })),
    )
    .execute();
}

/**
 * An operator changed a bundle's items (in `trx`, which holds the bundle's row lock): every cart holding
 * the bundle holds its new items, at the bundle quantity and in the place it had, so what a shopper pays
 * for is what the bundle is now. Stock is not checked here: checkout checks it, as for any cart.
 */
export async function followBundleItems(trx: Db, bundleId: number): Promise<void> {
  const held = await trx
    .selectFrom('cart_lines')
    .select([
      'cart_id',
      sql<number>`max(bundle_quantity)::int`.as('bundle_quantity'),
      sql<Date>`min(created_at)`.as('created_at'),
    ])
    .where('bundle_id', '=', bundleId)
    .groupBy('cart_id')
    .orderBy('cart_id')
    .execute();
  if (held.length === 0) return;
  // The carts locked in one order, as a shopper's change locks its own: their changes wait for this one.
  await trx
    .selectFrom('carts')
    .select('id')
    .where(
      'id',
      'in',
      held.map((h) => h.cart_id),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
  const items = await bundleItemsOf(trx, bundleId);
  await trx.deleteFrom('cart_lines').where('bundle_id', '=', bundleId).execute();
  for (const cart of held)
    await insertBundleLines(trx, cart.cart_id, bundleId, items, cart.bundle_quantity, new Date(cart.created_at));
}

/** The shopper's cart, touched, and one of its lines; 404 when there is no such cart or line. */
async function touchedCartLine(trx: Db, owner: CartOwner, lineId: string, now: Date) {
  const cart = await touchCart(trx, owner.storeId, owner.token, now);
  if (!cart) throw notFound();
  const line = await trx
    .selectFrom('cart_lines')
    .select(['id', 'bundle_id', 'product_variant_id'])
    .where('id', '=', lineId)
    .where('cart_id', '=', cart.id)
    .executeTakeFirst();
  if (!line) throw notFound();
  return { cart, line };
}

/** Sets a line's quantity; a bundle's line sets the whole bundle's. 404 when the cart has no such line. */
export async function changeLineQuantity(
  { db, clock }: Deps,
  owner: CartOwner,
  lineId: string,
  quantity: number,
): Promise<CartRow> {
  return db.transaction().execute(async (trx) => {
    const { cart, line } = await touchedCartLine(trx, owner, lineId, clock.now());
    if (line.bundle_id !== null) {
      await setBundleQuantity(trx, cart.id, line.bundle_id, quantity);
    } else {
      await trx.updateTable('cart_lines').set({ quantity }).where('id', '=', line.id).execute();
      await refuseBeyondStock(trx, cart.id, [line.product_variant_id]);
    }
    return cart;
  });
}

/** Removes a line; 404 when the cart has no such line. */
export async function removeLine({ db, clock }: Deps, owner: CartOwner, lineId: string): Promise<CartRow> {
  return db.transaction().execute(async (trx) => {
    const { cart, line } = await touchedCartLine(trx, owner, lineId, clock.now());
    // A bundle is one thing to the shopper: removing any of its lines removes all of them.
    if (line.bundle_id !== null)
      await trx
        .deleteFrom('cart_lines')
        .where('cart_id', '=', cart.id)
        .where('bundle_id', '=', line.bundle_id)
        .execute();
    else await trx.deleteFrom('cart_lines').where('id', '=', line.id).execute();
    return cart;
  });
}
