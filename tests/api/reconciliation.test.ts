/**
 * The reconciliation job (docs/decisions/110): paid carts without orders, owed refunds, idle carts,
 * expired rate-limit rows. Two runners at once stand for two API instances (on PostgreSQL, each with
 * its own pool). Prints the figure of paid carts reconciled.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createApiRuntime } from '../../src/server/runtime.ts';
import { reconcileOnce, type ReconcileSummary } from '../../src/server/reconciliation/reconcile.ts';
import { report } from './support/figures.ts';
import { acmeId, cartIdOf, chargesOf, finalize, pay, readyCart, S } from './support/shopper.ts';
import { newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
let tee: string;
beforeAll(async () => {
  api = await startTestApp();
  tee = await variantId(api.db, 'TEE-M-RED');
});
afterAll(async () => api?.close());

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Moves the API's clock (and so the job's) forward. */
const advance = (ms: number) => {
  api.clock.offsetMs += ms;
};
const ordersOf = (cartIds: readonly string[]) =>
  api.db.selectFrom('orders').select(['id', 'cart_id', 'payment_intent_id']).where('cart_id', 'in', cartIds).execute();

describe('paid carts without orders', () => {
  test('a paid cart whose shopper never came back is finalized after 10 minutes, once, by two runners at once', async () => {
    const carts = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const token = await readyCart(api, tee);
        return { token, intentId: await pay(api, token), cartId: await cartIdOf(api, token) };
      }),
    );
    const ids = carts.map((c) => c.cartId);
    advance(5 * MINUTE);
    const early = await reconcileOnce(api.deps);
    expect(early.paidCarts.finalized).toBe(0);
    expect(await ordersOf(ids)).toHaveLength(0);

    advance(6 * MINUTE);
    const second = { ...api.deps, db: api.instanceDb() };
    // Small claims, so the two runners interleave and share the carts between them.
    const settings = { paidAfterMinutes: 10, idleCartDays: 30, rateLimitWindowSeconds: 60, batchSize: 2 };
    const runs: ReconcileSummary[] = await Promise.all([
      reconcileOnce(api.deps, settings),
      reconcileOnce(second, settings),
    ]);
    const orders = await ordersOf(ids);
    const { charges, refunds } = await chargesOf(api, ids);
    const finalized = runs.map((r) => r.paidCarts.finalized);
    const perCart = new Set(orders.map((o) => o.cart_id)).size;
    // The shopper's browser finalizing late gets the same order.
    const late = await finalize(api, carts[0]!.token, carts[0]!.intentId);
    const emptied = (await api.call('GET', `${S}/cart`, { token: carts[1]!.token })).body.cartItems.length === 0;
    const violations =
      Math.abs(orders.length - carts.length) +
      Math.abs(charges - carts.length) +
      refunds +
      Number(perCart !== carts.length) +
      Number(finalized[0]! + finalized[1]! !== carts.length);
    report('reconcile-paid-carts', {
      carts: carts.length,
      runners: 2,
      finalized: finalized.join('+'),
      orders: orders.length,
      charges,
      refunds,
      errors: runs[0]!.errors + runs[1]!.errors,
      late_finalize: late.status,
      violations,
    });
    expect(orders).toHaveLength(carts.length);
    expect(perCart).toBe(carts.length);
    expect(orders.every((o) => carts.some((c) => c.intentId === o.payment_intent_id && c.cartId === o.cart_id))).toBe(
      true,
    );
    expect({ charges, refunds }).toEqual({ charges: carts.length, refunds: 0 });
    expect(finalized[0]! + finalized[1]!).toBe(carts.length);
    expect(runs.map((r) => r.errors)).toEqual([0, 0]);
    expect(late.status).toBe(200);
    expect(late.body.orderDetails.id).toBe(orders.find((o) => o.cart_id === carts[0]!.cartId)!.id);
    expect(emptied).toBe(true);
  });

  test('a paid cart that can no longer become an order is refunded', async () => {
    const token = await readyCart(api, tee);
    const intentId = await pay(api, token);
    const cartId = await cartIdOf(api, token);
    // The cart changed after the card was charged (a second tab), and nobody finalized.
    expect(
      (
        await api.call('POST', `${S}/cart/cart_line_items`, {
          token,
          body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
        })
      ).status,
    ).toBe(201);
    advance(11 * MINUTE);
    const run = await reconcileOnce(api.deps);
    expect(run.paidCarts).toMatchObject({ refunded: 1, finalized: 0 });
    expect(await ordersOf([cartId])).toHaveLength(0);
    expect(await chargesOf(api, [cartId])).toEqual({ charges: 0, refunds: 1, keptCents: 0 });
    const release = await api.db
      .selectFrom('payment_releases')
      .selectAll()
      .where('payment_intent_id', '=', intentId)
      .executeTakeFirstOrThrow();
    expect(release.released_at).not.toBeNull();
  });

  test('a payment confirmed less than 10 minutes ago waits, even on a cart untouched for longer', async () => {
    const token = await readyCart(api, tee);
    const cartId = await cartIdOf(api, token);
    advance(20 * MINUTE);
    await pay(api, token);
    advance(5 * MINUTE);
    expect((await reconcileOnce(api.deps)).paidCarts).toMatchObject({ checked: 1, waiting: 1, finalized: 0 });
    expect(await ordersOf([cartId])).toHaveLength(0);
    advance(10 * MINUTE);
    expect((await reconcileOnce(api.deps)).paidCarts).toMatchObject({ checked: 1, finalized: 1 });
    expect(await ordersOf([cartId])).toHaveLength(1);
  });
});

describe('owed refunds', () => {
  test('a refund the provider failed to make is retried by the job and made once', async () => {
    const token = await readyCart(api, tee);
    const intentId = await pay(api, token);
    const cartId = await cartIdOf(api, token);
    // What finalize leaves behind when the provider fails: the release decided, the refund owed.
    await api.db
      .insertInto('payment_releases')
      .values({
        payment_intent_id: intentId,
        cart_id: cartId,
        provider: 'test',
        kind: 'refund',
        amount_cents: 1,
        reason: 'test: provider failed',
        released_at: null,
      })
      .execute();
    await api.db.updateTable('carts').set({ payment_intent_id: null }).where('id', '=', cartId).execute();
    const runs = await Promise.all([reconcileOnce(api.deps), reconcileOnce({ ...api.deps, db: api.instanceDb() })]);
    expect(runs.reduce((n, r) => n + r.owedRefunds.settled, 0)).toBe(1);
    expect(await chargesOf(api, [cartId])).toEqual({ charges: 0, refunds: 1, keptCents: 0 });
    expect((await reconcileOnce(api.deps)).owedRefunds).toEqual({ tried: 0, settled: 0 });
  });
});

describe('clean-up', () => {
  test('carts idle for 30 days are deleted in batches, never one whose payment is pending or owed', async () => {
    const storeId = await acmeId(api);
    const plain = newToken();
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token: plain,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
    const abandoned = await readyCart(api, tee);
    const abandonedIntent = (await api.call('POST', `${S}/cart/checkout`, { token: abandoned })).body.paymentIntent
      .id as string;
    const paid = await readyCart(api, tee);
    await pay(api, paid);
    const owed = await readyCart(api, tee);
    const owedCart = await cartIdOf(api, owed);
    // Many more idle carts than one batch.
    await sql`insert into carts (id, store_id, token, updated_at)
      select gen_random_uuid(), ${storeId}, 'bulk-' || i, ${new Date(api.clock.now().getTime() - DAY)}::timestamptz from generate_series(1, 250) as i`.execute(
      api.db,
    );
    advance(31 * DAY);
    // A release whose provider call failed a moment ago is owed: its cart must stay.
    await api.db
      .insertInto('payment_releases')
      .values({
        payment_intent_id: `pi_owed_${owedCart}`,
        cart_id: owedCart,
        provider: 'test',
        kind: 'refund',
        amount_cents: 1,
        reason: 'test: owed',
        released_at: null,
        attempted_at: api.clock.now(),
      })
      .execute();
    const recent = newToken();
    await api.call('POST', `${S}/cart/cart_line_items`, {
      token: recent,
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });

    const run = await reconcileOnce(api.deps, {
      paidAfterMinutes: 10,
      idleCartDays: 30,
      rateLimitWindowSeconds: 60,
      batchSize: 100,
    });
    const left = async (token: string) =>
      Boolean(await api.db.selectFrom('carts').select('id').where('token', '=', token).executeTakeFirst());
    expect(run.errors).toBe(0);
    expect(run.idleCarts.deleted).toBeGreaterThanOrEqual(252);
    expect(await left(plain)).toBe(false);
    // The abandoned checkout's open payment is canceled first, then its cart goes.
    expect(await left(abandoned)).toBe(false);
    expect(
      (
        await api.db
          .selectFrom('payment_intents')
          .select('status')
          .where('id', '=', abandonedIntent)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe('canceled');
    // The paid one became its order (and its cart was touched by it).
    expect(await left(paid)).toBe(true);
    expect(await ordersOf([await cartIdOf(api, paid)])).toHaveLength(1);
    expect(await left(owed)).toBe(true);
    expect(await left(recent)).toBe(true);
    expect(
      (await sql<{ n: number }>`select count(*)::int as n from carts where token like 'bulk-%'`.execute(api.db))
        .rows[0]!.n,
    ).toBe(0);
  });

  test('rate-limit rows of ended windows are removed and the current ones kept', async () => {
    const windowMs = api.config.RATE_LIMIT_WINDOW_SECONDS * 1000;
    const now = api.clock.now().getTime();
    const current = new Date(Math.floor(now / windowMs) * windowMs);
    await api.db
      .insertInto('rate_limits')
      .values([
        { key: 'test:ended', window_start: new Date(current.getTime() - 2 * windowMs), count: 3 },
        { key: 'test:just-ended', window_start: new Date(current.getTime() - windowMs - 1000), count: 3 },
        { key: 'test:current', window_start: current, count: 3 },
      ])
      .execute();
    const run = await reconcileOnce(api.deps);
    expect(run.rateLimits.deleted).toBeGreaterThanOrEqual(2);
    const keys = (await api.db.selectFrom('rate_limits').select('key').where('key', 'like', 'test:%').execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(['test:current']);
  });
});

test('the API runtime (npm start, npm run start:api) runs the job on its own, every RECONCILE_EVERY_SECONDS', async () => {
  const runtime = await createApiRuntime(
    { NODE_ENV: 'test', DATA_DIR: 'memory://', LOG_LEVEL: 'silent', RECONCILE_EVERY_SECONDS: '1' },
    { logRequests: false },
  );
  try {
    await runtime.db
      .insertInto('rate_limits')
      .values({ key: 'test:long-ended', window_start: new Date(Date.now() - DAY), count: 1 })
      .execute();
    await vi.waitFor(
      async () =>
        expect(
          await runtime.db.selectFrom('rate_limits').select('key').where('key', '=', 'test:long-ended').execute(),
        ).toEqual([]),
      { timeout: 10_000, interval: 200 },
    );
  } finally {
    await runtime.close();
  }
}, 60_000);
