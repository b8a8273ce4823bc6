// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import AddToCart from '../../../src/islands/AddToCart.tsx';
import type { Cart, ProductVariant } from '../../../src/lib/api-types.ts';
import type { VariantView } from '../../../src/lib/catalog/catalog-card.ts';
import { $cart, $cartCount } from '../../../src/stores/cart.ts';
import { $notifications } from '../../../src/stores/notifications.ts';
import { variant } from './fixtures/stub-catalog-api.ts';

const built: VariantView[] = [
  { id: '11', name: 'S', options: { Size: 'S' }, price: '20.00', available: true },
  { id: '12', name: 'M', options: { Size: 'M' }, price: '20.00', available: true },
];

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function cartWith(size: number): Cart {
  return { cartItems: [], cartLineItemsSize: size, subTotal: '0.00', total: '0.00', tax: '0.00', shippingFee: '0.00', giftCards: [], address: null, requiresPayment: true };
}

let fresh: ProductVariant[];
const posted: unknown[] = [];

beforeEach(() => {
  fresh = [variant('11', '1', { Size: 'S' }, '25.00'), variant('12', '1', { Size: 'M' }, '25.00', false)];
  posted.length = 0;
  $cart.set(cartWith(0));
  $notifications.set([]);
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url.endsWith('/products/1/product_variants')) return json({ data: fresh });
    if (url.endsWith('/cart/cart_line_items') && init?.method === 'POST') {
      posted.push(JSON.parse(String(init.body)));
      return json(cartWith(3));
    }
    return json({ message: 'Record not found' }, 404);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const props = { kind: 'product' as const, slug: 'acme', productId: '1', name: 'Tee', optionNames: ['Size'], variants: built, cartHref: '/acme/cart', homeHref: '/acme' };

test('a page built with an old price shows the API’s current price and stock once it hydrates', async () => {
  render(<AddToCart {...props} />);
  expect(screen.getByText('$20.00')).toBeTruthy();
  await act(async () => {});
  expect(screen.getByText('$25.00')).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: /^M/ }));
  expect(screen.getByText('Sold out')).toBeTruthy();
  expect((screen.getByRole('button', { name: 'Add to cart' }) as HTMLButtonElement).disabled).toBe(true);
});

test('adding sends the chosen variant and quantity, updates the shared cart count and shows the 2500 ms toast', async () => {
  render(<AddToCart {...props} />);
  await act(async () => {});
  fireEvent.change(screen.getByRole('spinbutton', { name: 'Quantity' }), { target: { value: '3' } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
  });
  expect(posted).toEqual([{ cart_line_item: { product_variant_id: '11', quantity: 3 } }]);
  expect($cartCount.get()).toBe(3);
  const [toast] = $notifications.get();
  expect(toast).toMatchObject({
    title: 'Added to cart',
    durationMs: 2500,
    actions: [
      { label: 'Checkout', href: '/acme/cart' },
      { label: 'Continue Shopping', href: '/acme' },
    ],
  });
});

test('a whole bundle is added by its id', async () => {
  fresh = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url.endsWith('/bundles/7')) return json({ data: { id: '7', type: 'bundle', attributes: { price: '31.00', available: true } } });
    posted.push(JSON.parse(String(init?.body)));
    return json(cartWith(1));
  });
  render(<AddToCart kind="bundle" slug="acme" bundleId="7" name="Kit" price="29.50" available cartHref="/acme/cart" homeHref="/acme" />);
  await act(async () => {});
  expect(screen.getByText('$31.00')).toBeTruthy();
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Add bundle to cart' }));
  });
  expect(posted).toEqual([{ cart_line_item: { bundle_id: '7', quantity: 1 } }]);
  expect($cartCount.get()).toBe(1);
});

test('a refused add shows the spec’s error notification and leaves the cart alone', async () => {
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (init?.method === 'POST') return json({ message: 'Not enough stock', errors: { quantity: ['Only 2 left in stock.'] } }, 422);
    return json({ data: fresh });
  });
  render(<AddToCart {...props} />);
  await act(async () => {});
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
  });
  expect($cartCount.get()).toBe(0);
  expect($notifications.get()[0]).toMatchObject({ kind: 'error', title: 'Validation error occurred', message: 'Only 2 left in stock.' });
});
