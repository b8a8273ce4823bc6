import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { sql, type Expression, type Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Cart, CartItem, GiftCard, Image } from '../../lib/contract/answers.ts';
import { centsToDecimal } from '../../lib/money.ts';
import { compileOnce } from '../db/compile-once.ts';
import type { CartRow, Database, StoreRow } from '../db/schema.ts';
import type { AppEnv } from '../http/context.ts';
import { MAX_QUANTITY } from '../../lib/contract/limits.ts';
import { computeTotals, countCartUnits, type Totals } from '../domain/cart-math.ts';
import { pricingRuleFor, type StorePricing } from '../domain/destination-pricing.ts';
import type { StockLine } from '../domain/stock.ts';

type Db = Kysely<Database>;

/**
 * The shopper's cart token: the `recipient-token` header the cart-token middleware checked, or the
 * new one it issued in the `recipient-token` answer header (the client keeps it in a cookie, spec §7).
 */
export function cartToken(c: Context<AppEnv>): string {
  const token = c.var.cartToken;
  if (!token) throw new Error(`cartToken(): the cart-token middleware is not mounted on ${c.req.path}`);
  return token;
}

/** A store's tax and shipping settings as the pricing rules read them. */
export function storePricing(store: StoreRow): StorePricing {
  return {
    taxRates: store.tax_rates.map((rate) => ({ country: rate.country, region: rate.region, rateBps: rate.rate_bps })),
    shippingZones: store.shipping_zones.map((zone) => ({
      name: zone.name,
      countries: zone.countries,
      rateCents: zone.rate_cents,
      freeShippingThresholdCents: zone.free_shipping_threshold_cents,
    })),
    defaultTaxRateBps: store.tax_rate_bps,
    defaultShipping: {
      rateCents: store.shipping_flat_cents,
      freeShippingThresholdCents: store.free_shipping_threshold_cents,
    },
  };
}

export async function findCart(db: Db, storeId: number, token: string): Promise<CartRow | undefined> {
  return db
    .selectFrom('carts')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('token', '=', token)
    .executeTakeFirst();
}

/** The cart for this token in this store, created on first write and locked for the transaction. */
export async function lockOrCreateCart(trx: Db, storeId: number, token: string): Promise<CartRow> {
  await trx
    .insertInto('carts')
    .values({ id: randomUUID(), store_id: storeId, token, address: null, payment_intent_id: null, last_order_id: null })
    .onConflict((oc) => oc.columns(['store_id', 'token']).doNothing())
    .execute();
  return trx
    .selectFrom('carts')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('token', '=', token)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * lockOrCreateCart and the final `updated_at` touch in one statement, for writes that always touch the
 * cart: `on conflict do update` locks the existing row as `for update` would and returns it. Rolled back
 * with the transaction like the separate touch was.
 */
export async function upsertTouchedCart(trx: Db, storeId: number, token: string, now: Date): Promise<CartRow> {
  return trx
    .insertInto('carts')
    .values({
      id: randomUUID(),
      store_id: storeId,
      token,
      address: null,
      payment_intent_id: null,
      last_order_id: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['store_id', 'token']).doUpdateSet({ updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Touches the shopper's existing cart and answers it, locked for the transaction as `for update` would;
 * undefined when this token has no cart here. A refused change rolls the touch back with it.
 */
export async function touchCart(trx: Db, storeId: number, token: string, now: Date): Promise<CartRow | undefined> {
  return trx
    .updateTable('carts')
    .set({ updated_at: now })
    .where('store_id', '=', storeId)
    .where('token', '=', token)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Adding a variant, as one statement and so one atomic write without a transaction around it:
 * - `v`: the store's variant with its stock, name, the quantity this shopper's cart already holds of
 *   it on its own line and its share of the cart's bundle lines, as the statement's snapshot sees them;
 * - `c`: the cart, created or touched (`on conflict do update` waits for and locks a cart another
 *   call is writing) — only when the own line plus the new quantity stays within the 99 limit and
 *   the whole demand (own line, bundles, new quantity) within the stock;
 * - `l`: the line, created or increased on the `cart_lines_single_variant` index. The increase checks
 *   the limits again against the line as it is now, so concurrent adds can never pass them.
 * When the first check refuses, nothing is written. When only the second does (another call added
 * the same variant meanwhile), the cart has been touched and nothing else. The bundle share is the
 * snapshot's: a bundle added to the same cart at the same instant can slip past it, and then
 * checkout refuses the cart and finalize never takes more than the stock (docs/decisions/090).
 */
const addVariantStatement = compileOnce(
  (
    db,
    a: {
      cartId: string;
      lineId: string;
      storeId: number;
      token: string;
      variantId: number;
      quantity: number;
      now: Date;
      max: number;
    },
  ) =>
    db
      .with('v', (db) =>
        db
          .selectFrom('product_variants as v')
          .innerJoin('products as p', 'p.id', 'v.product_id')
          .select((eb) => [
            'v.id',
            'v.stock',
            'p.name',
            // The cart first (a scalar subquery), then its line: a join would let a plan made while
            // the tables were small scan every line of the variant instead.
            eb
              .selectFrom('cart_lines as held')
              .select('held.quantity')
              .where('held.cart_id', '=', (eb) =>
                eb
                  .selectFrom('carts')
                  .select('carts.id')
                  .where('carts.store_id', '=', a.storeId)
                  .where('carts.token', '=', a.token),
              )
              .whereRef('held.product_variant_id', '=', 'v.id')
              .where('held.bundle_id', 'is', null)
              .as('held'),
            eb
              .selectFrom('cart_lines as bundled')
              .select(sql<number>`coalesce(sum(bundled.quantity), 0)::int`.as('quantity'))
              .where('bundled.cart_id', '=', (eb) =>
                eb
                  .selectFrom('carts')
                  .select('carts.id')
                  .where('carts.store_id', '=', a.storeId)
                  .where('carts.token', '=', a.token),
              )
              .whereRef('bundled.product_variant_id', '=', 'v.id')
              .where('bundled.bundle_id', 'is not', null)
              .as('bundled'),
          ])
          .where('v.id', '=', a.variantId)
          .where('v.store_id', '=', a.storeId)
          .where('v.deactivated_at', 'is', null)
          .where('p.archived_at', 'is', null),
      )
      .with('c', (db) =>
        db
          .insertInto('carts')
          .columns(['id', 'store_id', 'token', 'updated_at'])
          .expression((eb) =>
            eb
              .selectFrom('v')
              .select([
                sql<string>`${a.cartId}::uuid`.as('id'),
                sql<number>`${a.storeId}::int`.as('store_id'),
                sql<string>`${a.token}::text`.as('token'),
                sql<Date>`${a.now}::timestamptz`.as('updated_at'),
              ])
              .where(
                sql<boolean>`coalesce(v.held, 0) + ${a.quantity}::int <= ${a.max}::int and coalesce(v.held, 0) + v.bundled + ${a.quantity}::int <= v.stock`,
              ),
          )
          .onConflict((oc) => oc.columns(['store_id', 'token']).doUpdateSet({ updated_at: a.now }))
          .returningAll(),
      )
      .with('l', (db) =>
        db
          .insertInto('cart_lines')
          .columns(['id', 'cart_id', 'product_variant_id', 'quantity'])
          .expression((eb) =>
            eb
              .selectFrom(['c', 'v'])
              .select([
                sql<string>`${a.lineId}::uuid`.as('id'),
                'c.id as cart_id',
                'v.id as product_variant_id',
                sql<number>`${a.quantity}::int`.as('quantity'),
              ]),
          )
          .onConflict((oc) =>
            oc
              .columns(['cart_id', 'product_variant_id'])
              .where('bundle_id', 'is', null)
              .doUpdateSet((eb) => ({ quantity: eb('cart_lines.quantity', '+', eb.ref('excluded.quantity')) }))
              .where(
                sql<boolean>`cart_lines.quantity + excluded.quantity <= ${a.max}::int and cart_lines.quantity + excluded.quantity + (select bundled from v) <= (select stock from v)`,
              ),
          )
          .returning('cart_lines.quantity'),
      )
      .selectFrom('v')
      .leftJoin('c', (join) => join.onTrue())
      .leftJoin('l', (join) => join.onTrue())
      .selectAll('c')
      .select(['v.stock', 'v.name', 'l.quantity as line_quantity']),
);

export type AddVariantResult =
  | { kind: 'added'; cart: CartRow }
  | { kind: 'no-such-variant' }
  /**
   * Nothing added: `wanted` (the variant's own line now plus what was asked) passes the limit, or
   * that plus the cart's bundles' share of the variant passes the stock.
   */
  | { kind: 'refused'; wanted: number; stock: number; name: string };

export async function addVariantToCart(
  db: Db,
  storeId: number,
  token: string,
  variantId: number,
  quantity: number,
  now: Date,
): Promise<AddVariantResult> {
  const [row] = await addVariantStatement(db, {
    cartId: randomUUID(),
    lineId: randomUUID(),
    storeId,
    token,
    variantId,
    quantity,
    now,
    max: MAX_QUANTITY,
  });
  if (!row) return { kind: 'no-such-variant' };
  const { stock, name, line_quantity, ...cart } = row;
  if (line_quantity !== null && cart.id !== null) return { kind: 'added', cart: cart as CartRow };
  // The refusal's words need what the cart holds now, not what the statement's snapshot saw.
  const held = await db
    .selectFrom('cart_lines as l')
    .innerJoin('carts as c', 'c.id', 'l.cart_id')
    .select('l.quantity')
    .where('c.store_id', '=', storeId)
    .where('c.token', '=', token)
    .where('l.product_variant_id', '=', variantId)
    .where('l.bundle_id', 'is', null)
    .executeTakeFirst();
  return { kind: 'refused', wanted: (held?.quantity ?? 0) + quantity, stock, name };
}

/** A cart line as the stock rules (domain/stock.ts) see it. */
export const toStockLine = (
  line: Pick<CartLine, 'product_variant_id' | 'product_name' | 'stock' | 'quantity'>,
): StockLine => ({
  variantId: line.product_variant_id,
  name: line.product_name,
  stock: line.stock,
  quantity: line.quantity,
});

/**
 * The cart's lines of these variants (all of its lines when none are named) with their current stock,
 * read fresh: inside a transaction that locked the cart, what the change just wrote included.
 */
export async function stockLinesOf(db: Db, cartId: string, variantIds?: readonly number[]): Promise<StockLine[]> {
  if (variantIds?.length === 0) return [];
  let query = db
    .selectFrom('cart_lines as l')
    .innerJoin('product_variants as v', 'v.id', 'l.product_variant_id')
    .innerJoin('products as p', 'p.id', 'v.product_id')
    .select(['l.product_variant_id as variantId', 'p.name', 'v.stock', 'l.quantity'])
    .where('l.cart_id', '=', cartId);
  if (variantIds) query = query.where('l.product_variant_id', 'in', variantIds);
  return query.orderBy('l.created_at').orderBy('l.position').orderBy('l.id').execute();
}

export type CartLine = {
  id: string;
  quantity: number;
  bundle_id: number | null;
  bundle_quantity: number | null;
  product_variant_id: number;
  product_id: number;
  product_name: string;
  variant_name: string;
  price_cents: number;
  stock: number;
  default_image_id: number | null;
  bundle_name: string | null;
  /** The product's default image, else its first (as `defaultImage` picks it), read with the line. */
  image_id: number | null;
  image_url: string | null;
  image_alt: string | null;
};

/** The cart's lines with what the answer shows of each, in the order they were added. */
function linesOf(db: Db, cartId: string | Expression<string>) {
  return (
    db
      .selectFrom('cart_lines as l')
      .innerJoin('product_variants as v', 'v.id', 'l.product_variant_id')
      .innerJoin('products as p', 'p.id', 'v.product_id')
      .leftJoin('bundles as b', 'b.id', 'l.bundle_id')
      // One round trip instead of a second images query: the image each line shows, picked in SQL.
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('product_images as i')
            .select(['i.id', 'i.url', 'i.alt'])
            .whereRef('i.product_id', '=', 'p.id')
            .orderBy(sql`coalesce(i.id = p.default_image_id, false)`, 'desc')
            .orderBy('i.position')
            .orderBy('i.id')
            .limit(1)
            .as('img'),
        (join) => join.onTrue(),
      )
      .select([
        'l.id',
        'l.quantity',
        'l.bundle_id',
        'l.bundle_quantity',
        'l.product_variant_id',
        'v.product_id',
        'p.name as product_name',
        'v.name as variant_name',
        'v.price_cents',
        'v.stock',
        'p.default_image_id',
        'b.name as bundle_name',
        'img.id as image_id',
        'img.url as image_url',
        'img.alt as image_alt',
      ])
      .where('l.cart_id', '=', cartId)
      .orderBy('l.created_at')
      .orderBy('l.position')
      .orderBy('l.id')
  );
}

export type AppliedCard = {
  id: string;
  code: string;
  balance_cents: number;
  expires_at: Date | null;
  /** Disabled in the console: worth nothing, and checkout refuses the cart until it is removed. */
  disabled: boolean;
};

function cardsOf(db: Db, cartId: string | Expression<string>) {
  return db
    .selectFrom('cart_gift_cards as cg')
    .innerJoin('gift_cards as g', 'g.id', 'cg.gift_card_id')
    .select(['g.id', 'g.code', 'g.balance_cents', 'g.expires_at'])
    .select(sql<boolean>`g.disabled_at is not null`.as('disabled'))
    .where('cg.cart_id', '=', cartId)
    .orderBy('cg.applied_at')
    .orderBy('g.code');
}

type JsonContents = {
  lines: CartLine[];
  /** Timestamps arrive as JSON strings. */
  cards: (Omit<AppliedCard, 'expires_at'> & { expires_at: string | Date | null })[];
};

/** The lines and gift cards of a cart as JSON arrays: one round trip for both, in the cart's own read. */
function contentsOf(db: Db, cartId: string | Expression<string>) {
  return [jsonArrayFrom(linesOf(db, cartId)).as('lines'), jsonArrayFrom(cardsOf(db, cartId)).as('cards')] as const;
}

const contentsStatement = compileOnce((db, a: { cartId: string }) => db.selectNoFrom(() => contentsOf(db, a.cartId)));

const cartWithContentsStatement = compileOnce((db, a: { storeId: number; token: string }) =>
  db
    .selectFrom('carts as c')
    .selectAll('c')
    .select(contentsOf(db, sql.ref<string>('c.id')))
    .where('c.store_id', '=', a.storeId)
    .where('c.token', '=', a.token),
);

function fromJson(contents: JsonContents): Pick<CartState, 'lines' | 'cards'> {
  const cards = contents.cards.map((card) => ({
    ...card,
    expires_at: card.expires_at === null ? null : new Date(card.expires_at),
  }));
  return { lines: contents.lines, cards };
}

export type CartState = {
  cart: CartRow | null;
  lines: CartLine[];
  cards: AppliedCard[];
  totals: Totals;
  /** Free shipping from this subtotal at the cart's destination (the store's own before an address). */
  freeShippingThresholdCents: number | null;
};

function withTotals(
  store: StoreRow,
  cart: CartRow | null,
  { lines, cards }: Pick<CartState, 'lines' | 'cards'>,
  now: Date,
): CartState {
  // Tax and shipping follow the saved address; before one, they are not charged (docs/decisions/180).
  const address = cart?.address ?? null;
  const rule = pricingRuleFor(storePricing(store), address && { country: address.country, region: address.state });
  const totals = computeTotals(
    lines.map((l) => ({
      unitPriceCents: l.price_cents,
      quantity: l.quantity,
      bundleId: l.bundle_id,
      bundleQuantity: l.bundle_quantity,
    })),
    rule,
    cards.map((g) => ({
      id: g.id,
      code: g.code,
      balanceCents: g.disabled || (g.expires_at && g.expires_at <= now) ? 0 : g.balance_cents,
    })),
  );
  return { cart, lines, cards, totals, freeShippingThresholdCents: rule.freeShippingThresholdCents };
}

/** Everything the server computes about a cart, from current prices and balances. */
export async function cartState(db: Db, store: StoreRow, cart: CartRow | null, now: Date): Promise<CartState> {
  if (!cart) return withTotals(store, null, { lines: [], cards: [] }, now);
  const [contents] = await contentsStatement(db, { cartId: cart.id });
  return withTotals(store, cart, fromJson(contents as JsonContents), now);
}

/** Reshapes a cart state into the contract's Cart (and the order snapshot's items). */
export function reshapeCart(state: CartState): Cart {
  const imageOf = (line: CartLine): Image | null =>
    line.image_id === null
      ? null
      : // An undescribed upload's alt is left out, as in the catalog answers (reshape.ts).
        { id: String(line.image_id), url: line.image_url ?? '', ...(line.image_alt ? { alt: line.image_alt } : {}) };
  const bundleImages = new Map<number, Image[]>();
  for (const line of state.lines) {
    if (line.bundle_id === null) continue;
    const list = bundleImages.get(line.bundle_id) ?? [];
    const image = imageOf(line);
    if (image && !list.some((i) => i.id === image.id)) list.push(image);
    bundleImages.set(line.bundle_id, list);
  }
  const cartItems: CartItem[] = state.lines.map((line) => ({
    id: line.id,
    quantity: line.quantity,
    price: centsToDecimal(line.price_cents * line.quantity),
    unit_price: centsToDecimal(line.price_cents),
    bundle_id: line.bundle_id === null ? null : String(line.bundle_id),
    bundle_details:
      line.bundle_id === null
        ? null
        : {
            id: String(line.bundle_id),
            name: line.bundle_name ?? '',
            quantity: line.bundle_quantity ?? 1,
            images: bundleImages.get(line.bundle_id) ?? [],
          },
    product_details: {
      product_id: String(line.product_id),
      product_variant_id: String(line.product_variant_id),
      name: line.product_name,
      variant_name: line.variant_name,
      image: imageOf(line),
    },
  }));
  const { totals } = state;
  const giftCards: GiftCard[] = totals.giftCards.map((g) => ({
    id: g.id,
    code: g.code,
    amount: centsToDecimal(g.amountCents),
  }));
  return {
    cartItems,
    cartLineItemsSize: countCartUnits(
      state.lines.map((l) => ({ quantity: l.quantity, bundleId: l.bundle_id, bundleQuantity: l.bundle_quantity })),
    ),
    subTotal: centsToDecimal(totals.subtotalCents),
    total: centsToDecimal(totals.totalCents),
    tax: centsToDecimal(totals.taxCents),
    shippingFee: centsToDecimal(totals.shippingCents),
    giftCards,
    address: state.cart?.address ?? null,
    freeShippingThreshold:
      state.freeShippingThresholdCents === null ? null : centsToDecimal(state.freeShippingThresholdCents),
    requiresPayment: totals.totalCents > 0,
  };
}

/** Loads and reshapes the cart of this token (an empty cart when it has none yet): one statement. */
export async function cartAnswer(db: Db, store: StoreRow, token: string, now: Date, known?: CartRow): Promise<Cart> {
  if (known) return reshapeCart(await cartState(db, store, known, now));
  const [found] = await cartWithContentsStatement(db, { storeId: store.id, token });
  if (!found) return reshapeCart(withTotals(store, null, { lines: [], cards: [] }, now));
  const { lines, cards, ...cart } = found;
  return reshapeCart(withTotals(store, cart, fromJson({ lines, cards }), now));
}
