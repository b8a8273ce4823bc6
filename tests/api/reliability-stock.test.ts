/**
 * Stock is never oversold: many paid carts race for the last units, on PGlite (npm test) and
 * PostgreSQL (CI runs this project again with DATABASE_URL). Every test prints its figure.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pool, report, split, timed } from './support/figures.ts';
import {
  bundleOf,
  cartIdOf,
  chargesOf,
  finalize,
  pay,
  readyBundleCart,
  readyCart,
  stockedVariant,
  stockOf,
} from './support/shopper.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

const CARTS = 50;
const STOCK = 3;

type Race = {
  tokens: string[];
  intents: string[];
};

/** Every cart paid first (no stock is held at checkout), then all finalize at once. */
async function race({ tokens, intents }: Race) {
  const answers = await Promise.all(tokens.map((token, i) => timed(() => finalize(api, token, intents[i]))));
  const statuses = answers.map((a) => a.value.status);
  const cartIds = await Promise.all(tokens.map((t) => cartIdOf(api, t)));
  const orders = await api.db.selectFrom('orders').select('cart_id').where('cart_id', 'in', cartIds).execute();
  const money = await chargesOf(api, cartIds);
  return { answers, statuses, orders: orders.length, ...money, latencies: answers.map((a) => a.ms) };
}

describe('stock is never oversold', () => {
  test(`${CARTS} carts paying for 1 of a variant with stock ${STOCK} at once: ${STOCK} orders, stock 0, every other payment refunded, no 500`, async () => {
    const item = await stockedVariant(api, STOCK, { name: 'Last Three Lamp' });
    const tokens = await pool(CARTS, 8, () => readyCart(api, item, 1));
    const intents = await pool(CARTS, 8, (i) => pay(api, tokens[i]!));

    const r = await race({ tokens, intents });
    const left = await stockOf(api, item);
    const errors500 = r.statuses.filter((s) => s >= 500).length;
    const violations =
      r.statuses.filter((s) => s !== 200 && s !== 409).length +
      (r.orders === STOCK ? 0 : 1) +
      (left === 0 ? 0 : 1) +
      (r.charges === r.orders ? 0 : 1) +
      (r.charges + r.refunds === CARTS ? 0 : 1);
    report(
      `stock×${CARTS}`,
      {
        stock: STOCK,
        orders: r.orders,
        stock_left: left,
        charges: r.charges,
        refunds: r.refunds,
        errors500,
        answers: split(r.statuses),
        violations,
      },
      r.latencies,
    );

    expect(r.statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(r.orders).toBe(STOCK);
    expect(left).toBe(0);
    expect(r.charges).toBe(STOCK);
    expect(r.refunds).toBe(CARTS - STOCK);
    for (const a of r.answers.filter((x) => x.value.status === 409))
      expect(a.value.body.message).toMatch(
        /^(Last Three Lamp is out of stock|Only \d of Last Three Lamp left in stock)\. Your payment is being refunded/,
      );
  });

  test(`${CARTS} carts paying for two bundles that share a component with stock ${STOCK}: ${STOCK} orders, the component at 0, the others taken only by orders`, async () => {
    const shared = await stockedVariant(api, STOCK, { name: 'Shared Grinder' });
    const beans = await stockedVariant(api, 1000);
    const filters = await stockedVariant(api, 1000);
    const breakfast = await bundleOf(api, [
      { variant: shared, quantity: 1 },
      { variant: beans, quantity: 2 },
    ]);
    const brewing = await bundleOf(api, [
      { variant: filters, quantity: 3 },
      { variant: shared, quantity: 1 },
    ]);
    const tokens = await pool(CARTS, 8, (i) => readyBundleCart(api, i % 2 === 0 ? breakfast : brewing));
    const intents = await pool(CARTS, 8, (i) => pay(api, tokens[i]!));

    const r = await race({ tokens, intents });
    const left = await stockOf(api, shared);
    const beansTaken = 1000 - (await stockOf(api, beans));
    const filtersTaken = 1000 - (await stockOf(api, filters));
    const orderedBundles = await api.db
      .selectFrom('orders')
      .select('details')
      .where('cart_id', 'in', await Promise.all(tokens.map((t) => cartIdOf(api, t))))
      .execute();
    const breakfasts = orderedBundles.filter((o) => o.details.cartItems.some((i) => i.bundle_id === breakfast)).length;
    const errors500 = r.statuses.filter((s) => s >= 500).length;
    const otherStockRight = beansTaken === 2 * breakfasts && filtersTaken === 3 * (r.orders - breakfasts);
    const violations =
      r.statuses.filter((s) => s !== 200 && s !== 409).length +
      (r.orders === STOCK ? 0 : 1) +
      (left === 0 ? 0 : 1) +
      (otherStockRight ? 0 : 1) +
      (r.charges === r.orders ? 0 : 1) +
      (r.charges + r.refunds === CARTS ? 0 : 1);
    report(
      `stock-bundles×${CARTS}`,
      {
        stock: STOCK,
        orders: r.orders,
        stock_left: left,
        beans_taken: beansTaken,
        filters_taken: filtersTaken,
        charges: r.charges,
        refunds: r.refunds,
        errors500,
        answers: split(r.statuses),
        violations,
      },
      r.latencies,
    );

    expect(r.statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(r.orders).toBe(STOCK);
    expect(left).toBe(0);
    expect(otherStockRight).toBe(true);
    expect(r.charges).toBe(STOCK);
    expect(r.refunds).toBe(CARTS - STOCK);
  });
});
