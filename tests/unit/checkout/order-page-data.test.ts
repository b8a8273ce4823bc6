import { expect, test, vi } from 'vitest';
import type { Order } from '../../../src/lib/contract/answers.ts';
import { ApiError } from '../../../src/lib/api-error.ts';
import { loadOrder } from '../../../src/lib/page-data/order.ts';
import { kitchenSink } from './fixtures/carts.ts';

const uuid = '7d1f0c9e-0000-4000-8000-000000000001';
const order = {
  orderDetails: {
    ...kitchenSink,
    id: uuid,
    number: 'A-10001',
    createdAt: '2026-11-21T06:00:00Z',
    status: 'paid',
    storeSlug: 'acme',
    address: {},
  },
  paymentIntent: null,
} as unknown as Order;

test('an order of this store is shown', async () => {
  expect(await loadOrder({ getOrder: async () => order }, { slug: 'acme', id: uuid })).toBe(order);
});

test('an unknown uuid gives no order (the page answers 404)', async () => {
  const api = {
    getOrder: vi.fn(async () => {
      throw new ApiError(404, { message: 'Record not found' });
    }),
  };
  expect(await loadOrder(api, { slug: 'acme', id: uuid })).toBeNull();
});

test('something that is not a uuid is not even asked for', async () => {
  const api = { getOrder: vi.fn(async () => order) };
  expect(await loadOrder(api, { slug: 'acme', id: '../../etc' })).toBeNull();
  expect(api.getOrder).not.toHaveBeenCalled();
});

test("another store's order is not shown under this store", async () => {
  expect(await loadOrder({ getOrder: async () => order }, { slug: 'vip', id: uuid })).toBeNull();
});

test('an API failure other than not-found is thrown, not hidden as a 404', async () => {
  const api = {
    getOrder: async () => {
      throw new ApiError(503, { message: 'down' });
    },
  };
  await expect(loadOrder(api, { slug: 'acme', id: uuid })).rejects.toThrow('down');
});
