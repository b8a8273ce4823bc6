// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { $cart, $cartCount, clearCart, loadCart } from '../../../src/stores/cart.ts';
import { ApiError } from '../../../src/lib/api-error.ts';
import { $notifications, notify, notifyError, pauseToasts, resumeToasts } from '../../../src/stores/notifications.ts';
import { $linkBase, $storeSlug, setStore } from '../../../src/stores/store.ts';
import { acme } from './fixtures.ts';

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    $notifications.set([]);
  });
  afterEach(() => vi.useRealTimers());

  test('a toast disappears after 4500 ms', () => {
    notify({ title: 'Saved' });
    vi.advanceTimersByTime(4499);
    expect($notifications.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($notifications.get()).toHaveLength(0);
  });

  test('an add-to-cart toast with its actions disappears after 2500 ms', () => {
    notify({
      title: 'Added to cart',
      kind: 'success',
      durationMs: 2500,
      actions: [
        { label: 'Checkout', href: '/acme/cart' },
        { label: 'Continue Shopping', href: '/acme' },
      ],
    });
    expect($notifications.get()[0]?.actions.map((a) => a.label)).toEqual(['Checkout', 'Continue Shopping']);
    vi.advanceTimersByTime(2499);
    expect($notifications.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($notifications.get()).toEqual([]);
  });

  test('a paused toast stays while the shopper reads it, then gets only the time it had left', () => {
    notify({ title: 'Saved' });
    vi.advanceTimersByTime(4000);
    pauseToasts();
    vi.advanceTimersByTime(60_000);
    expect($notifications.get()).toHaveLength(1);
    resumeToasts();
    vi.advanceTimersByTime(499);
    expect($notifications.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($notifications.get()).toHaveLength(0);
  });

  test('a toast shown during a pause waits for the pause to end before its time starts', () => {
    pauseToasts();
    notify({ title: 'Added to cart', durationMs: 2500 });
    vi.advanceTimersByTime(10_000);
    expect($notifications.get()).toHaveLength(1);
    resumeToasts();
    vi.advanceTimersByTime(2499);
    expect($notifications.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($notifications.get()).toHaveLength(0);
  });

  test('notifyError shows the spec §8 title and message', () => {
    notifyError(new ApiError(422, { message: 'Bad', errors: { code: ['Gift card not found.'] } }));
    expect($notifications.get()[0]).toMatchObject({
      kind: 'error',
      title: 'Validation error occurred',
      message: 'Gift card not found.',
    });
  });
});

describe('store and loading state', () => {
  test('setStore keeps the store, its slug and link base', () => {
    setStore(acme, '');
    expect([$storeSlug.get(), $linkBase.get()]).toEqual(['acme', '']);
    setStore(acme);
    expect($linkBase.get()).toBe('/acme');
  });
});

describe('the cart', () => {
  afterEach(() => vi.unstubAllGlobals());

  test('loadCart stores the answer and the header count follows cartLineItemsSize', async () => {
    const cart = {
      cartItems: [],
      cartLineItemsSize: 3,
      subTotal: '1.00',
      total: '1.00',
      tax: '0.00',
      shippingFee: '0.00',
      giftCards: [],
      address: null,
      requiresPayment: true,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(cart), { status: 200 })),
    );
    await loadCart('acme');
    expect($cartCount.get()).toBe(3);
  });

  test("a failed cart fetch empties the cart and reports 'Error fetching cart details'", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'Record not found' }), { status: 404 })),
    );
    await loadCart('acme');
    expect($cart.get()?.cartItems).toEqual([]);
    expect($cartCount.get()).toBe(0);
    expect(error).toHaveBeenCalledWith('Error fetching cart details', expect.any(ApiError));
    error.mockRestore();
  });

  test('clearing the cart removes the recipient-token cookie and reloads the cart', async () => {
    document.cookie = 'recipient-token=old; path=/';
    const fetchMock = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      expect(new Headers(init?.headers).has('recipient-token')).toBe(false);
      return new Response(JSON.stringify({ cartItems: [], cartLineItemsSize: 0 }), {
        status: 200,
        headers: { 'recipient-token': 'fresh' },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    await clearCart('acme');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(document.cookie).toContain('recipient-token=fresh');
  });
});

test('loads started together share one cart request', async () => {
  const fetchMock = vi.fn(
    async () => new Response(JSON.stringify({ cartItems: [], cartLineItemsSize: 2 }), { status: 200 }),
  );
  vi.stubGlobal('fetch', fetchMock);
  const [a, b] = await Promise.all([loadCart('acme'), loadCart('acme')]);
  expect(a).toBe(b);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  await loadCart('acme');
  expect(fetchMock).toHaveBeenCalledTimes(2);
  vi.unstubAllGlobals();
});
