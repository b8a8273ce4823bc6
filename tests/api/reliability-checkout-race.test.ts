/**
 * `cart/checkout` racing `cart/finalize` on a paid cart (a second tab, a page reload while the
 * webhook finalizes): the order is placed once and the cart stays usable — the next checkout of
 * new items opens a new payment. Runs on PGlite and PostgreSQL, where the calls truly overlap.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import * as initial from '../../src/server/db/migrations/0001_initial.ts';
import * as paymentReleases from '../../src/server/db/migrations/0002_payment_releases.ts';
import * as singleVariantLines from '../../src/server/db/migrations/0003_single_variant_lines.ts';
import { insertEarlyStore, withDatabaseUpTo } from './support/early-schema.ts';
import { report, split } from './support/figures.ts';
import { finalize, pay, readyCart, S, stockedVariant } from './support/shopper.ts';
import { newToken, startTestApp, type ApiAnswer, type TestApp } from './support/test-app.ts';

let api: TestApp;
let item: string;
beforeAll(async () => {
  api = await startTestApp();
  item = await stockedVariant(api, 1_000_000);
});
afterAll(async () => api?.close());

const ROUNDS = 60;

describe('checkout racing finalize', () => {
  test(`over ${ROUNDS} rounds, checkout at the same moment as finalize never leaves a cart stuck or hands out a spent payment`, async () => {
    const raceStatuses: number[] = [];
    const laterStatuses: number[] = [];
    let stuck = 0;
    let spentHandedOut = 0;
    let orders = 0;
    let unexpected = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const token = await readyCart(api, item, 1);
      const paid = await pay(api, token);
      // Checkouts back to back for as long as finalize runs (a reloading tab), so one of them
      // straddles finalize's commit whatever the timing of this machine.
      let finalizing = true;
      const finalized = finalize(api, token, paid).finally(() => (finalizing = false));
      const checkouts: ApiAnswer[] = [];
      do checkouts.push(await api.call('POST', `${S}/cart/checkout`, { token }));
      while (finalizing);
      const placed = await finalized;
      raceStatuses.push(placed.status, ...checkouts.map((c) => c.status));
      // Each checkout answers the paid intent (finalizing it answers this same order) or the cart already ordered.
      const expected = (c: ApiAnswer) =>
        c.status === 200
          ? c.body.paymentIntent.id === paid
          : c.status === 422 && c.body.message === 'Your cart is empty.';
      if (placed.status !== 200 || !checkouts.every(expected)) unexpected++;

      // The shopper buys again from the same cart: the same total in even rounds, another in odd ones.
      await api.call('POST', `${S}/cart/cart_line_items`, {
        token,
        body: { cart_line_item: { product_variant_id: item, quantity: 1 + (round % 2) } },
      });
      const again = await api.call('POST', `${S}/cart/checkout`, { token });
      laterStatuses.push(again.status);
      if (again.status !== 200) {
        stuck++;
        continue;
      }
      if (again.body.paymentIntent.id === paid) {
        spentHandedOut++;
        continue;
      }
      const second = await finalize(api, token, await pay(api, token));
      if (second.status === 200 && second.body.orderDetails.id !== placed.body.orderDetails.id) orders++;
    }
    const violations = stuck + spentHandedOut + unexpected + (ROUNDS - orders);
    report('checkout+finalize', {
      rounds: ROUNDS,
      stuck,
      unexpected,
      spent_intent_reused: spentHandedOut,
      second_orders: orders,
      race_answers: split(raceStatuses),
      later_checkouts: split(laterStatuses),
      violations,
    });
    expect(stuck).toBe(0);
    expect(spentHandedOut).toBe(0);
    expect(unexpected).toBe(0);
    expect(orders).toBe(ROUNDS);
  });

  test('migration 0005 frees a cart the old race left on a spent intent, and leaves other carts alone', async () => {
    const upTo0003 = {
      '0001_initial': initial,
      '0002_payment_releases': paymentReleases,
      '0003_single_variant_lines': singleVariantLines,
    };
    await withDatabaseUpTo(upTo0003, async (db) => {
      const store = await insertEarlyStore(db);
      const cart = (id: string, intent: string | null) => ({
        id,
        store_id: store.id,
        token: newToken(),
        address: null,
        payment_intent_id: intent,
        last_order_id: null,
        intent_seq: 4,
      });
      const stuck = crypto.randomUUID();
      const paying = crypto.randomUUID();
      await db
        .insertInto('carts')
        .values([cart(stuck, 'pi_spent'), cart(paying, 'pi_open')])
        .execute();
      await db
        .insertInto('orders')
        .values({
          id: crypto.randomUUID(),
          store_id: store.id,
          cart_id: stuck,
          payment_intent_id: 'pi_spent',
          provider: 'test',
          subtotal_cents: 100,
          tax_cents: 0,
          shipping_cents: 0,
          gift_cards_cents: 0,
          total_cents: 100,
          details: '{}',
        })
        .execute();

      expect(await migrateToLatest(db)).toContain('0005_stock');

      const carts = await db
        .selectFrom('carts')
        .select(['id', 'payment_intent_id', 'intent_seq'])
        .where('id', 'in', [stuck, paying])
        .orderBy('intent_seq')
        .execute();
      expect(carts).toEqual([
        { id: paying, payment_intent_id: 'pi_open', intent_seq: 4 },
        { id: stuck, payment_intent_id: null, intent_seq: 5 },
      ]);
    });
  });
});
