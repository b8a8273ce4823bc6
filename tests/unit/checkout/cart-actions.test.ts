import { beforeEach, describe, expect, test, vi } from 'vitest';
import type { Cart } from '../../../src/lib/contract/answers.ts';
import { ApiError } from '../../../src/lib/api-error.ts';
import { kitchenSink } from './fixtures/carts.ts';

const api = {
  changeCartLine: vi.fn<(slug: string, id: string, body: unknown) => Promise<Cart>>(),
  removeCartLine: vi.fn<(slug: string, id: string) => Promise<Cart>>(),
  applyGiftCard: vi.fn<(slug: string, body: unknown) => Promise<Cart>>(),
  removeGiftCard: vi.fn<(slug: string, id: string, body: unknown) => Promise<Cart>>(),
};
// The calls take the requester first; the stubs see what follows it.
vi.mock('../../../src/lib/api-client/index.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  browserRequester: () => vi.fn(),
  changeCartLine: (_request: unknown, slug: string, id: string, body: unknown) => api.changeCartLine(slug, id, body),
  removeCartLine: (_request: unknown, slug: string, id: string) => api.removeCartLine(slug, id),
  applyGiftCard: (_request: unknown, slug: string, body: unknown) => api.applyGiftCard(slug, body),
  removeGiftCard: (_request: unknown, slug: string, id: string, body: unknown) => api.removeGiftCard(slug, id, body),
}));

const { $cart, applyGiftCard, changeQuantity, removeGiftCard, removeLine } =
  await import('../../../src/stores/cart.ts');
const { $notifications } = await import('../../../src/stores/notifications.ts');
const { setStore } = await import('../../../src/stores/store.ts');

beforeEach(() => {
  vi.resetAllMocks();
  setStore({ title: 'Acme', slug: 'acme', faviconImage: null, allowedListsPresent: false, description: null });
  $cart.set(kitchenSink);
  $notifications.set([]);
});

describe('cart actions', () => {
  test('a quantity change shows at once and then takes the API answer', async () => {
    const answer: Cart = { ...kitchenSink, subTotal: '66.50', total: '50.86' };
    let resolve!: (cart: Cart) => void;
    api.changeCartLine.mockReturnValue(new Promise((r) => (resolve = r)));
    const done = changeQuantity('l-1', 3);
    expect($cart.get()?.cartItems[0]?.quantity).toBe(3);
    resolve(answer);
    expect(await done).toBe(true);
    expect($cart.get()).toBe(answer);
    expect(api.changeCartLine).toHaveBeenCalledWith('acme', 'l-1', { cart_line_item: { quantity: 3 } });
  });

  test('a failed change rolls back and shows the spec §8 notification', async () => {
    api.changeCartLine.mockRejectedValue(
      new ApiError(422, { message: 'Invalid', errors: { quantity: ['Quantity is more than the stock.'] } }),
    );
    expect(await changeQuantity('l-1', 99)).toBe(false);
    expect($cart.get()).toBe(kitchenSink);
    expect($notifications.get().map((t) => [t.title, t.message])).toEqual([
      ['Validation error occurred', 'Quantity is more than the stock.'],
    ]);
  });

  test('two quick changes reach the API in order and the screen keeps the newest', async () => {
    const answers: ((cart: Cart) => void)[] = [];
    api.changeCartLine.mockImplementation(() => new Promise((r) => answers.push(r)));
    const first = changeQuantity('l-1', 2);
    const second = changeQuantity('l-1', 3);
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    answers[0]!({ ...kitchenSink, subTotal: 'first' });
    await first;
    expect($cart.get()?.cartItems[0]?.quantity).toBe(3);
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    expect(api.changeCartLine.mock.calls.map((c) => c[2])).toEqual([
      { cart_line_item: { quantity: 2 } },
      { cart_line_item: { quantity: 3 } },
    ]);
    answers[1]!({ ...kitchenSink, subTotal: 'second' });
    await second;
    expect($cart.get()?.subTotal).toBe('second');
  });

  test('removing a bundle deletes every line the API still has', async () => {
    const afterFirst: Cart = { ...kitchenSink, cartItems: kitchenSink.cartItems.filter((i) => i.id !== 'l-2') };
    const afterSecond: Cart = { ...kitchenSink, cartItems: afterFirst.cartItems.filter((i) => i.id !== 'l-4') };
    api.removeCartLine.mockResolvedValueOnce(afterFirst).mockResolvedValueOnce(afterSecond);
    expect(await removeLine('l-2')).toBe(true);
    expect(api.removeCartLine.mock.calls.map((c) => c[1])).toEqual(['l-2', 'l-4']);
    expect($cart.get()).toBe(afterSecond);
  });

  test('removing a bundle the API dropped whole makes one call', async () => {
    const after: Cart = { ...kitchenSink, cartItems: kitchenSink.cartItems.filter((i) => !i.bundle_id) };
    api.removeCartLine.mockResolvedValue(after);
    await removeLine('l-4');
    expect(api.removeCartLine).toHaveBeenCalledTimes(1);
  });

  test('a quantity below one removes the line', async () => {
    api.removeCartLine.mockResolvedValue(kitchenSink);
    await changeQuantity('l-3', 0);
    expect(api.removeCartLine).toHaveBeenCalledWith('acme', 'l-3');
    expect(api.changeCartLine).not.toHaveBeenCalled();
  });

  test('an unknown gift card code shows the API message as a validation error', async () => {
    api.applyGiftCard.mockRejectedValue(new ApiError(422, { message: 'Gift card not found' }));
    expect(await applyGiftCard(' NOPE ')).toBe(false);
    expect(api.applyGiftCard).toHaveBeenCalledWith('acme', { gift_card: { code: 'NOPE' } });
    expect($notifications.get()[0]).toMatchObject({
      title: 'Validation error occurred',
      message: 'Gift card not found.',
    });
  });

  test('removing a gift card sends its code and drops it at once', async () => {
    let resolve!: (cart: Cart) => void;
    api.removeGiftCard.mockReturnValue(new Promise((r) => (resolve = r)));
    const done = removeGiftCard('g-1');
    expect($cart.get()?.giftCards).toEqual([]);
    await vi.waitFor(() =>
      expect(api.removeGiftCard).toHaveBeenCalledWith('acme', 'g-1', { gift_card: { code: 'ACME-25' } }),
    );
    resolve({ ...kitchenSink, giftCards: [] });
    await done;
  });
});
