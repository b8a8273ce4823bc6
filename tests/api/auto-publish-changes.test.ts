/**
 * Auto-publish hears of every catalog change (docs/decisions/213-publishing-for-editors-and-shoppers.md):
 * besides the console's writes, an import of the store and stock that orders take or give back, the latter
 * only when the store's pages would show it (a variant or a bundle sold out, or buyable again).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { importCatalog } from '../../src/server/catalog/import.ts';
import { operatorOf, type Operator } from './support/operator.ts';
import { acmeId, bundleOf, finalize, pay, readyBundleCart, readyCart, stockedVariant } from './support/shopper.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
let owner: Operator;
const QUIET_SECONDS = 30;

beforeAll(async () => {
  api = await startTestApp();
  owner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
});
afterAll(async () => api?.close());

/** When acme is due to publish by itself (null: not due). */
async function dueAt(): Promise<Date | null> {
  const row = await api.db
    .selectFrom('stores')
    .select('auto_publish_due_at')
    .where('slug', '=', 'acme')
    .executeTakeFirstOrThrow();
  return row.auto_publish_due_at && new Date(row.auto_publish_due_at);
}
/** Runs the change and expects acme due one quiet period after it. */
async function expectPublishAfterQuietPeriod(change: () => Promise<unknown>): Promise<void> {
  const before = api.clock.now().getTime();
  await change();
  const after = api.clock.now().getTime();
  const due = (await dueAt())?.getTime();
  expect(due).toBeGreaterThanOrEqual(before + QUIET_SECONDS * 1000);
  expect(due).toBeLessThanOrEqual(after + QUIET_SECONDS * 1000);
}

async function setAutoPublish(enabled: boolean): Promise<void> {
  await api.db
    .updateTable('stores')
    .set({ auto_publish: enabled, auto_publish_quiet_seconds: QUIET_SECONDS, auto_publish_due_at: null })
    .where('id', '=', await acmeId(api))
    .execute();
}

/** A paid order of `quantity` units of a variant: answers the order's id and its line's. */
async function buy(variant: string, quantity: number): Promise<{ id: string; lineId: string }> {
  const token = await readyCart(api, variant, quantity);
  const order = await finalize(api, token, await pay(api, token));
  expect(order.status, order.text).toBe(200);
  return { id: order.body.orderDetails.id, lineId: order.body.orderDetails.cartItems[0].id };
}

describe('with auto-publish on', () => {
  beforeEach(() => setAutoPublish(true));

  test('a sale that leaves the variant in stock schedules nothing', async () => {
    const variant = await stockedVariant(api, 5);
    await buy(variant, 2);
    expect(await dueAt()).toBeNull();
  });

  test('the sale of the last units schedules a publish after the quiet period', async () => {
    const variant = await stockedVariant(api, 2);
    await expectPublishAfterQuietPeriod(() => buy(variant, 2));
  });

  test('a sale that leaves too few for a bundle holding three of the variant schedules a publish', async () => {
    const variant = await stockedVariant(api, 4);
    const bundle = await bundleOf(api, [{ variant, quantity: 3 }]);
    await buy(variant, 1);
    // 3 left: the bundle can still be bought.
    expect(await dueAt()).toBeNull();
    const token = await readyBundleCart(api, bundle);
    const intent = await pay(api, token);
    await expectPublishAfterQuietPeriod(async () => expect((await finalize(api, token, intent)).status).toBe(200));
  });

  test('a refund that gives a sold-out variant back to stock schedules a publish; one of a variant still in stock does not', async () => {
    const refund = (orderId: string, lineId: string) =>
      owner.call('POST', `/admin/stores/acme/orders/${orderId}/refunds`, {
        body: { idempotency_key: crypto.randomUUID(), amount: '1.00', restock: [lineId] },
      });
    const plenty = await stockedVariant(api, 10);
    const some = await buy(plenty, 1);
    expect((await refund(some.id, some.lineId)).status).toBe(201);
    expect(await dueAt()).toBeNull();

    const last = await stockedVariant(api, 1);
    const all = await buy(last, 1);
    await setAutoPublish(true);
    api.clock.offsetMs += 5_000;
    await expectPublishAfterQuietPeriod(async () => expect((await refund(all.id, all.lineId)).status).toBe(201));
  });

  test('an import of a store with auto-publish on schedules its publish; of a store with it off, nothing', async () => {
    const catalog = (slug: string) =>
      parseCatalog({ store: { slug, title: 'Imported Goods', tax_rate_bps: 0, shipping_flat: '2.00' } });
    const dueOf = async (slug: string) =>
      (
        await api.db
          .selectFrom('stores')
          .select('auto_publish_due_at')
          .where('slug', '=', slug)
          .executeTakeFirstOrThrow()
      ).auto_publish_due_at;
    // New stores start with auto-publish off.
    await importCatalog(api.db, catalog('imported-goods'), api.clock.now());
    expect(await dueOf('imported-goods')).toBeNull();

    await api.db.updateTable('stores').set({ auto_publish: true }).where('slug', '=', 'imported-goods').execute();
    const before = api.clock.now().getTime();
    await importCatalog(api.db, catalog('imported-goods'), api.clock.now());
    expect(new Date((await dueOf('imported-goods'))!).getTime()).toBeGreaterThanOrEqual(before + QUIET_SECONDS * 1000);
    // Another store's import leaves acme alone.
    expect(await dueAt()).toBeNull();
  });
});

test('with auto-publish off, selling the last unit schedules nothing', async () => {
  await setAutoPublish(false);
  await buy(await stockedVariant(api, 1), 1);
  expect(await dueAt()).toBeNull();
});
