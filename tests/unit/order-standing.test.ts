import { describe, expect, test } from 'vitest';
import { orderStatusText, shippingText } from '../../src/lib/order-standing.ts';

describe('the order page’s status words', () => {
  test('paid, partly refunded and refunded name the amount given back', () => {
    expect(orderStatusText({ status: 'paid', refunded: '0.00' })).toBe('Paid');
    expect(orderStatusText({ status: 'paid' })).toBe('Paid');
    expect(orderStatusText({ status: 'partially_refunded', refunded: '5.00' })).toBe('Partly refunded: $5.00');
    expect(orderStatusText({ status: 'refunded', refunded: '1234.50' })).toBe('Refunded: $1,234.50');
  });

  test('a shipped order names its carrier and tracking number', () => {
    expect(shippingText({ fulfillment: null })).toBe('Not shipped yet');
    expect(shippingText({})).toBe('Not shipped yet');
    expect(
      shippingText({ fulfillment: { carrier: 'UPS', trackingNumber: '1Z999', fulfilledAt: '2026-11-27T10:00:00Z' } }),
    ).toBe('Shipped with UPS, tracking number 1Z999');
  });
});
