// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import AddToCart from '../../../src/islands/AddToCart.tsx';
import type { Cart, ProductVariant } from '../../../src/lib/contract/answers.ts';
import type { VariantView } from '../../../src/lib/catalog/catalog-card.ts';
import { $cart, $cartCount } from '../../../src/stores/cart.ts';
import { $notifications } from '../../../src/stores/notifications.ts';
import { variant } from './fixtures/stub-catalog-api.ts';

const built: VariantView[] = [
  { id: '11', name: 'S', options: { Size: 'S' }, price: '20.00', available: true, stock: 40 },
  { id: '12', name: 'M', options: { Size: 'M' }, price: '20.00', available: true, stock: 40 },
];

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function cartWith(size: number): Cart {
  return {
    cartItems: [],
    cartLineItemsSize: size,
    subTotal: '0.00',
    total: '0.00',
    tax: '0.00',
    shippingFee: '0.00',
    giftCards: [],
    address: null,
    freeShippingThreshold: null,
    requiresPayment: true,
  };
}

let fresh: ProductVariant[];
const posted: unknown[] = [];

beforeEach(() => {
  // A choice writes ?variant=ID into the page's URL; each test opens a page without one.
  history.replaceState(null, '', '/acme/product/1');
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

const props = {
  kind: 'product' as const,
  slug: 'acme',
  productId: '1',
  name: 'Tee',
  optionNames: ['Size'],
  variants: built,
  cartHref: '/acme/cart',
  homeHref: '/acme',
};

test('a page built with an old price shows the API’s current price and stock once it hydrates', async () => {
  render(<AddToCart {...props} />);
  expect(screen.getByText('$20.00')).toBeTruthy();
  await act(async () => {});
  expect(screen.getByText('$25.00')).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: /^M/ }));
  expect(screen.getByText('Sold out', { selector: '.stock' })).toBeTruthy();
  expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sold out' }).disabled).toBe(true);
  expect(quantityInput().disabled).toBe(true);
});

test('choosing a variant keeps it in the URL, and a page opened with ?variant=ID starts on it', async () => {
  const first = render(<AddToCart {...props} />);
  await act(async () => {});
  fireEvent.click(screen.getByRole('radio', { name: /^M/ }));
  expect(location.search).toBe('?variant=12');
  first.unmount();

  render(<AddToCart {...props} />);
  await act(async () => {});
  expect(screen.getByRole<HTMLInputElement>('radio', { name: /^M/ }).checked).toBe(true);
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
    if (url.endsWith('/bundles/7'))
      return json({ data: { id: '7', type: 'bundle', attributes: { price: '31.00', available: true } } });
    posted.push(JSON.parse(String(init?.body)));
    return json(cartWith(1));
  });
  render(
    <AddToCart
      kind="bundle"
      slug="acme"
      bundleId="7"
      name="Kit"
      price="29.50"
      available
      cartHref="/acme/cart"
      homeHref="/acme"
    />,
  );
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
    if (init?.method === 'POST')
      return json({ message: 'Not enough stock', errors: { quantity: ['Only 2 left in stock.'] } }, 422);
    return json({ data: fresh });
  });
  render(<AddToCart {...props} />);
  await act(async () => {});
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
  });
  expect($cartCount.get()).toBe(0);
  expect($notifications.get()[0]).toMatchObject({
    kind: 'error',
    title: 'Validation error occurred',
    message: 'Only 2 left in stock.',
  });
});

const withStock = (v: ProductVariant, stock: number): ProductVariant => ({
  ...v,
  attributes: { ...v.attributes, stock, available: stock > 0 },
});
const quantityInput = () => screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Quantity' });

test('a variant at or below the store’s threshold (5 by default) says “Only N left” and the picker stops at its stock', async () => {
  fresh = [
    withStock(variant('11', '1', { Size: 'S' }, '25.00'), 3),
    withStock(variant('12', '1', { Size: 'M' }, '25.00'), 40),
  ];
  render(<AddToCart {...props} />);
  expect(screen.getByText('In stock')).toBeTruthy();
  await act(async () => {});
  expect(screen.getByText('Only 3 left')).toBeTruthy();
  expect(quantityInput().max).toBe('3');
  // Typed freely, clamped when the field is left.
  fireEvent.change(quantityInput(), { target: { value: '10' } });
  expect(quantityInput().value).toBe('10');
  fireEvent.blur(quantityInput());
  expect(quantityInput().value).toBe('3');
  fireEvent.click(screen.getByRole('radio', { name: /^M/ }));
  expect(screen.getByText('In stock')).toBeTruthy();
  expect(quantityInput().max).toBe('40');
});

test('the threshold is the store’s: above it, or with 0, the variant is simply in stock', async () => {
  fresh = [
    withStock(variant('11', '1', { Size: 'S' }, '25.00'), 3),
    withStock(variant('12', '1', { Size: 'M' }, '25.00'), 1),
  ];
  render(<AddToCart {...props} lowStockThreshold={2} />);
  await act(async () => {});
  expect(screen.getByText('In stock')).toBeTruthy();
  fireEvent.click(screen.getByRole('radio', { name: /^M/ }));
  expect(screen.getByText('Only 1 left')).toBeTruthy();
  cleanup();
  render(<AddToCart {...props} lowStockThreshold={0} />);
  await act(async () => {});
  fireEvent.click(screen.getByRole('radio', { name: /^M/ }));
  expect(screen.getByText('In stock')).toBeTruthy();
});

test('choosing a variant with less stock than the chosen quantity brings the quantity down to it', async () => {
  fresh = [
    withStock(variant('11', '1', { Size: 'S' }, '25.00'), 40),
    withStock(variant('12', '1', { Size: 'M' }, '25.00'), 2),
  ];
  render(<AddToCart {...props} />);
  await act(async () => {});
  fireEvent.change(quantityInput(), { target: { value: '10' } });
  expect(quantityInput().value).toBe('10');
  fireEvent.click(screen.getByRole('radio', { name: /^M/ }));
  expect(quantityInput().value).toBe('2');
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
  });
  expect(posted).toEqual([{ cart_line_item: { product_variant_id: '12', quantity: 2 } }]);
});
