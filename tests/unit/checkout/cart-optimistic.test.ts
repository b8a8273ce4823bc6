import { expect, test } from 'vitest';
import { withQuantity, withoutGiftCard, withoutLine } from '../../../src/lib/cart-optimistic.ts';
import { kitchenSink } from './fixtures/carts.ts';

test('changing a product line quantity reprices the line and the subtotal', () => {
  const cart = withQuantity(kitchenSink, 'l-1', 3);
  expect(cart.cartItems.find((i) => i.id === 'l-1')).toMatchObject({ quantity: 3, price: '36.00' });
  expect(cart.subTotal).toBe('66.50');
  expect(cart.cartLineItemsSize).toBe(6);
});

test("a bundle's quantity moves all of its lines", () => {
  const cart = withQuantity(kitchenSink, 'l-4', 1);
  const lines = cart.cartItems.filter((i) => i.bundle_id === 'b-1');
  expect(lines.map((i) => [i.quantity, i.price, i.bundle_details?.quantity])).toEqual([
    [1, '4.50', 1],
    [2, '3.00', 1],
  ]);
  expect(cart.subTotal).toBe('47.00');
});

test('removing a bundle removes all of its lines', () => {
  const cart = withoutLine(kitchenSink, 'l-2');
  expect(cart.cartItems.map((i) => i.id)).toEqual(['l-1', 'l-3']);
  expect(cart.cartLineItemsSize).toBe(3);
});

test('removing a product line leaves the bundle alone', () => {
  expect(withoutLine(kitchenSink, 'l-3').cartItems.map((i) => i.id)).toEqual(['l-1', 'l-2', 'l-4']);
});

test('removing a gift card adds its amount back to the total', () => {
  const cart = withoutGiftCard(kitchenSink, 'g-1');
  expect(cart.giftCards).toEqual([]);
  expect(cart.total).toBe('63.86');
});
