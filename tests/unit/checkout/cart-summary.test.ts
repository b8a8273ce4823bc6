import { expect, test } from 'vitest';
import { freeShippingHint, NOT_YET_PRICED, summaryRows } from '../../../src/lib/cart-summary.ts';
import { decimalToCents } from '../../../src/lib/money.ts';
import { kitchenSink } from './fixtures/carts.ts';

test('the summary lists subtotal, shipping, tax, each gift card as a deduction and the total, formatted', () => {
  expect(summaryRows(kitchenSink, { priced: true }).map((r) => [r.label, r.value])).toEqual([
    ['Subtotal', '$54.50'],
    ['Shipping', '$5.00'],
    ['Tax', '$4.36'],
    ['Gift card ACME-25', '-$25.00'],
    ['Total', '$38.86'],
  ]);
});

test('the rows add up to the total', () => {
  const cents = (r: { value: string }) => decimalToCents(r.value.replace(/[$,]/g, ''));
  const rows = summaryRows(kitchenSink, { priced: true });
  const parts = rows.filter((r) => r.kind !== 'total').reduce((sum, r) => sum + cents(r), 0);
  expect(parts).toBe(cents(rows.at(-1)!));
});

test('before an address, tax and shipping say they are calculated at checkout; they are not hidden in the total', () => {
  const unpriced = { ...kitchenSink, tax: '0.00', shippingFee: '0.00', total: '29.50' };
  const rows = summaryRows(unpriced, { priced: false });
  expect(rows.map((r) => [r.label, r.value])).toEqual([
    ['Subtotal', '$54.50'],
    ['Shipping', NOT_YET_PRICED],
    ['Tax', NOT_YET_PRICED],
    ['Gift card ACME-25', '-$25.00'],
    ['Total', '$29.50'],
  ]);
});

test('shipping priced at zero reads Free', () => {
  const rows = summaryRows({ ...kitchenSink, shippingFee: '0.00', total: '33.86' }, { priced: true });
  expect(rows.find((r) => r.kind === 'shipping')?.value).toBe('Free');
});

test('amounts over a thousand get a thousands separator', () => {
  const rows = summaryRows({ ...kitchenSink, giftCards: [], total: '1234.50' }, { priced: false });
  expect(rows.at(-1)?.value).toBe('$1,234.50');
});

test('the free-shipping hint says how much is missing, and nothing once there or without a threshold', () => {
  expect(freeShippingHint('54.50', '75.00')).toBe('Add $20.50 more for free shipping');
  expect(freeShippingHint('74.99', '75.00')).toBe('Add $0.01 more for free shipping');
  expect(freeShippingHint('75.00', '75.00')).toBeNull();
  expect(freeShippingHint('54.50', null)).toBeNull();
});
