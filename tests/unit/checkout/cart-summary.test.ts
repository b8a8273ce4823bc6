import { expect, test } from 'vitest';
import { summaryRows } from '../../../src/lib/cart-summary.ts';
import { kitchenSink } from './fixtures/carts.ts';

test('the summary lists subtotal, tax, shipping, each gift card as a deduction and the total, formatted', () => {
  expect(summaryRows(kitchenSink, { withAddress: true }).map((r) => [r.label, r.value])).toEqual([
    ['Subtotal', '$54.50'],
    ['Tax', '$4.36'],
    ['Shipping', '$5.00'],
    ['Gift card ACME-25', '-$25.00'],
    ['Total', '$38.86'],
  ]);
});

test('before an address is saved tax and shipping are left out and the total is an estimate', () => {
  const rows = summaryRows(kitchenSink, { withAddress: false });
  expect(rows.map((r) => r.kind)).toEqual(['subtotal', 'gift-card', 'total']);
  expect(rows.at(-1)?.label).toBe('Estimated total');
});

test('amounts over a thousand get a thousands separator', () => {
  const rows = summaryRows({ ...kitchenSink, giftCards: [], total: '1234.50' }, { withAddress: false });
  expect(rows.at(-1)?.value).toBe('$1,234.50');
});
