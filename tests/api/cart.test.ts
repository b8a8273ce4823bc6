import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADDRESS, bundleId, newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
let tee: string; // TEE-M-RED 20.00
let bottle: string; // STEEL-BOTTLE 32.00
let soldOut: string; // TEE-S-RED, stock 0
let sunglasses: string; // stock 3
let coffeeKit: string;
beforeAll(async () => {
  api = await startTestApp();
  tee = await variantId(api.db, 'TEE-M-RED');
  bottle = await variantId(api.db, 'STEEL-BOTTLE');
  soldOut = await variantId(api.db, 'TEE-S-RED');
  sunglasses = await variantId(api.db, 'SUNGLASSES');
  coffeeKit = await bundleId(api.db, 'coffee-kit');
});
afterAll(async () => api?.close());

const add = (token: string, line: Record<string, unknown>) =>
  api.call('POST', '/store_front/acme/cart/cart_line_items', { token, body: { cart_line_item: line } });

describe('cart identity', () => {
  test('a cart call without a token answers an empty cart and a new random recipient-token header', async () => {
    const first = await api.call('GET', '/store_front/acme/cart');
    const second = await api.call('GET', '/store_front/acme/cart');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      cartItems: [],
      cartLineItemsSize: 0,
      subTotal: '0.00',
      total: '0.00',
      tax: '0.00',
      shippingFee: '0.00',
      giftCards: [],
      address: null,
      freeShippingThreshold: '75.00',
      requiresPayment: false,
    });
    const token = first.headers.get('recipient-token');
    expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(second.headers.get('recipient-token')).not.toBe(token);
  });

  test('adding without a token creates the cart under the returned token', async () => {
    const res = await api.call('POST', '/store_front/acme/cart/cart_line_items', {
      body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
    });
    expect(res.status).toBe(201);
    const token = res.headers.get('recipient-token')!;
    const cart = await api.call('GET', '/store_front/acme/cart', { token });
    expect(cart.headers.get('recipient-token')).toBeNull();
    expect(cart.body.cartItems).toHaveLength(1);
  });

  test('a cart is readable and writable only with its own token, and only in its own store', async () => {
    const alice = newToken();
    const mallory = newToken();
    const added = await add(alice, { product_variant_id: tee, quantity: 2 });
    const lineId = added.body.cartItems[0].id;
    expect((await api.call('GET', '/store_front/acme/cart', { token: mallory })).body.cartItems).toEqual([]);
    expect(
      (
        await api.call('PATCH', `/store_front/acme/cart/cart_line_items/${lineId}`, {
          token: mallory,
          body: { cart_line_item: { quantity: 5 } },
        })
      ).status,
    ).toBe(404);
    expect(
      (await api.call('DELETE', `/store_front/acme/cart/cart_line_items/${lineId}`, { token: mallory })).status,
    ).toBe(404);
    const vip = await api.call('GET', '/store_front/vip/cart', {
      token: alice,
      headers: { 'allowed-domain-token': 'vip-domain-token' },
    });
    expect(vip.body.cartItems).toEqual([]);
    expect((await api.call('GET', '/store_front/acme/cart', { token: alice })).body.cartItems[0].quantity).toBe(2);
  });

  test('random tokens find nothing', async () => {
    for (let i = 0; i < 50; i++) {
      const res = await api.call('GET', '/store_front/acme/cart', { token: newToken() });
      expect(res.body.cartItems).toEqual([]);
    }
  });
});

const shipTo = (token: string, place: { country: string; state: string; zip?: string }) =>
  api.call('PUT', '/store_front/acme/cart', { token, body: { cart: { ...ADDRESS, ...place } } });

describe('lines and totals', () => {
  test('adding a product computes subtotal, tax, shipping and total on the server', async () => {
    const token = newToken();
    const unpriced = await add(token, { product_variant_id: tee, quantity: 2 });
    expect(unpriced.status).toBe(201);
    // Before an address: tax and shipping depend on it, so neither is charged yet.
    expect(unpriced.body).toMatchObject({ subTotal: '40.00', tax: '0.00', shippingFee: '0.00', total: '40.00' });
    const res = await shipTo(token, { country: 'US', state: 'IL' });
    // 2 × 20.00 = 40.00; Illinois pays the US rate 8.25 % = 3.30; shipping 5.99 below 75.00
    expect(res.body).toMatchObject({
      cartLineItemsSize: 2,
      subTotal: '40.00',
      tax: '3.30',
      shippingFee: '5.99',
      total: '49.29',
      requiresPayment: true,
    });
    expect(res.body.cartItems[0]).toMatchObject({
      quantity: 2,
      price: '40.00',
      unit_price: '20.00',
      bundle_id: null,
      bundle_details: null,
      product_details: { product_variant_id: tee, name: 'Classic Cotton Tee', variant_name: 'M / Red' },
    });
  });

  test('adding the same variant again merges the lines; shipping is free from 75.00', async () => {
    const token = newToken();
    await shipTo(token, { country: 'US', state: 'IL' });
    await add(token, { product_variant_id: bottle, quantity: 1 });
    const res = await add(token, { product_variant_id: bottle, quantity: 2 });
    expect(res.body.cartItems).toHaveLength(1);
    expect(res.body).toMatchObject({ subTotal: '96.00', shippingFee: '0.00', tax: '7.92', total: '103.92' });
  });

  test('prices, totals and currencies sent by the client are ignored', async () => {
    const token = newToken();
    const res = await add(token, {
      product_variant_id: tee,
      quantity: 1,
      price: '0.01',
      unit_price: 0,
      total: '0.00',
      currency: 'jpy',
      discount: 100,
    });
    expect(res.status).toBe(201);
    expect(res.body.cartItems[0].price).toBe('20.00');
    const put = await api.call('PUT', '/store_front/acme/cart', {
      token,
      body: { cart: { ...ADDRESS, total: '0.00' }, total: '0.00' },
    });
    // 20.00 + 8.25 % tax + 5.99 shipping, whatever the client said.
    expect(put.body).toMatchObject({ subTotal: '20.00', tax: '1.65', shippingFee: '5.99', total: '27.64' });
  });

  test.each([
    ['-1', -1],
    ['0', 0],
    ['0.5', 0.5],
    ['1e9', 1e9],
    ['a string', '2'],
    ['100', 100],
    ['null', null],
    ['an object', { n: 1 }],
  ])('quantity %s is refused with 422 and an errors map', async (_name, quantity) => {
    const token = newToken();
    const res = await add(token, { product_variant_id: tee, quantity });
    expect(res.status).toBe(422);
    expect(res.body.errors.quantity).toEqual(['Quantity must be a whole number from 1 to 99.']);
    expect(res.body.message).toBe('Quantity must be a whole number from 1 to 99.');
    expect((await api.call('GET', '/store_front/acme/cart', { token })).body.cartItems).toEqual([]);
  });

  test('a line may not grow past 99 or past the stock', async () => {
    const token = newToken();
    expect((await add(token, { product_variant_id: bottle, quantity: 60 })).status).toBe(201);
    const tooMany = await add(token, { product_variant_id: bottle, quantity: 40 });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.quantity[0]).toContain('at most 99');
    const out = await add(token, { product_variant_id: soldOut, quantity: 1 });
    expect(out.status).toBe(422);
    expect(out.body.errors.quantity).toEqual(['Classic Cotton Tee is out of stock.']);
    const few = await add(token, { product_variant_id: sunglasses, quantity: 4 });
    expect(few.body.errors.quantity).toEqual(['Only 3 of Polarised Sunglasses left in stock.']);
  });

  test('bad add payloads: no item, both ids, unknown ids, malformed JSON', async () => {
    const token = newToken();
    expect((await api.call('POST', '/store_front/acme/cart/cart_line_items', { token, body: {} })).status).toBe(422);
    expect((await add(token, { quantity: 1 })).body.errors.product_variant_id).toBeDefined();
    expect((await add(token, { product_variant_id: tee, bundle_id: coffeeKit, quantity: 1 })).status).toBe(422);
    expect((await add(token, { product_variant_id: 'abc', quantity: 1 })).status).toBe(422);
    const unknown = await add(token, { product_variant_id: 999999, quantity: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Record not found' });
    const vipVariant = await variantId(api.db, 'VIP-RESERVE-WATCH', 'vip');
    expect((await add(token, { product_variant_id: vipVariant, quantity: 1 })).status).toBe(404);
    const malformed = await api.call('POST', '/store_front/acme/cart/cart_line_items', {
      token,
      rawBody: '{"cart_line_item": {',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Malformed JSON in request body.' });
  });

  test('changing a quantity and removing a line', async () => {
    const token = newToken();
    const added = await add(token, { product_variant_id: tee, quantity: 1 });
    const id = added.body.cartItems[0].id;
    const patched = await api.call('PATCH', `/store_front/acme/cart/cart_line_items/${id}`, {
      token,
      body: { cart_line_item: { quantity: 3 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.cartItems[0]).toMatchObject({ quantity: 3, price: '60.00' });
    expect(
      (
        await api.call('PATCH', `/store_front/acme/cart/cart_line_items/${id}`, {
          token,
          body: { cart_line_item: { quantity: 0 } },
        })
      ).status,
    ).toBe(422);
    const removed = await api.call('DELETE', `/store_front/acme/cart/cart_line_items/${id}`, { token });
    expect(removed.body.cartItems).toEqual([]);
    expect(removed.body.total).toBe('0.00');
    expect((await api.call('DELETE', `/store_front/acme/cart/cart_line_items/${id}`, { token })).status).toBe(404);
    expect((await api.call('DELETE', '/store_front/acme/cart/cart_line_items/not-a-uuid', { token })).status).toBe(404);
  });
});

describe('bundles in the cart', () => {
  test('adding a bundle adds one line per item sharing the bundle id, counted once', async () => {
    const token = newToken();
    const res = await add(token, { bundle_id: coffeeKit, quantity: 1 });
    expect(res.status).toBe(201);
    expect(res.body.cartItems.map((i: any) => [i.product_details.name, i.quantity, i.bundle_id])).toEqual([
      ['Pour-Over Coffee Set', 1, coffeeKit],
      ['Single-Origin Coffee Beans', 1, coffeeKit],
      ['Stoneware Mug', 2, coffeeKit],
    ]);
    expect(res.body.cartItems[0].bundle_details).toMatchObject({
      id: coffeeKit,
      name: 'Morning Coffee Kit',
      quantity: 1,
    });
    expect(res.body.cartLineItemsSize).toBe(1);
    expect(res.body.subTotal).toBe('98.50');
  });

  test('adding the bundle again, or changing any of its lines, moves the whole bundle', async () => {
    const token = newToken();
    await add(token, { bundle_id: coffeeKit, quantity: 1 });
    const twice = await add(token, { bundle_id: coffeeKit, quantity: 1 });
    expect(twice.body.cartItems.map((i: any) => i.quantity)).toEqual([2, 2, 4]);
    expect(twice.body.cartLineItemsSize).toBe(2);
    const mugLine = twice.body.cartItems[2].id;
    const three = await api.call('PATCH', `/store_front/acme/cart/cart_line_items/${mugLine}`, {
      token,
      body: { cart_line_item: { quantity: 3 } },
    });
    expect(three.body.cartItems.map((i: any) => i.quantity)).toEqual([3, 3, 6]);
    expect(three.body.cartItems[0].bundle_details.quantity).toBe(3);
  });

  test('removing a bundle removes all of its lines and leaves other lines', async () => {
    const token = newToken();
    await add(token, { product_variant_id: tee, quantity: 1 });
    const res = await add(token, { bundle_id: coffeeKit, quantity: 1 });
    const bundleLine = res.body.cartItems.find((i: any) => i.bundle_id !== null).id;
    const after = await api.call('DELETE', `/store_front/acme/cart/cart_line_items/${bundleLine}`, { token });
    expect(after.body.cartItems).toHaveLength(1);
    expect(after.body.cartItems[0].bundle_id).toBeNull();
  });

  test('unknown bundles are 404', async () => {
    expect((await add(newToken(), { bundle_id: 999999, quantity: 1 })).status).toBe(404);
  });
});

describe('address', () => {
  test('PUT cart saves the address and answers the cart', async () => {
    const token = newToken();
    await add(token, { product_variant_id: tee, quantity: 1 });
    const res = await api.call('PUT', '/store_front/acme/cart', {
      token,
      body: { cart: { ...ADDRESS, country: 'us' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.address).toEqual({ ...ADDRESS, country: 'US' });
    expect((await api.call('GET', '/store_front/acme/cart', { token })).body.address.city).toBe('Springfield');
  });

  test('an invalid address answers 422 with a message per field', async () => {
    const res = await api.call('PUT', '/store_front/acme/cart', {
      token: newToken(),
      body: { cart: { ...ADDRESS, first_name: '', email: 'nope', country: 'USA', state: undefined } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      first_name: ['First name is required.'],
      email: ['Please enter a valid email address.'],
      country: ['Country must be a two-letter country code.'],
      state: ['State is required.'],
    });
    expect(res.body.message).toBe('First name is required.');
    expect((await api.call('PUT', '/store_front/acme/cart', { token: newToken(), body: [] })).status).toBe(422);
  });
});

describe('tax and shipping by destination (the demo store: ADR 180)', () => {
  // 2 × 20.00 for every destination below.
  const US = { shippingFee: '5.99', freeShippingThreshold: '75.00' };
  const CANADA = { shippingFee: '12.00', freeShippingThreshold: '150.00' };
  test.each([
    ['Illinois: the US rate', { country: 'US', state: 'IL', zip: '62701' }, { tax: '3.30', ...US }],
    ['California: its own rate', { country: 'US', state: 'CA', zip: '95014' }, { tax: '2.90', ...US }],
    ['New York: its own rate', { country: 'US', state: 'NY', zip: '10001' }, { tax: '3.55', ...US }],
    ['Oregon: no sales tax', { country: 'US', state: 'OR', zip: '97201' }, { tax: '0.00', ...US }],
    ['Ontario: its HST, the Canada zone', { country: 'CA', state: 'ON', zip: 'M5V 2T6' }, { tax: '5.20', ...CANADA }],
    ['Alberta: the Canadian rate', { country: 'CA', state: 'AB', zip: 'T5J 0N3' }, { tax: '2.00', ...CANADA }],
    [
      'the United Kingdom: VAT',
      { country: 'GB', state: 'WSM', zip: 'SW1A 2AA' },
      { tax: '8.00', shippingFee: '15.00', freeShippingThreshold: '200.00' },
    ],
    [
      'Japan: no tax, the rest-of-the-world zone',
      { country: 'JP', state: '13', zip: '100-0001' },
      { tax: '0.00', shippingFee: '25.00', freeShippingThreshold: null },
    ],
  ])('%s', async (_name, place, expected) => {
    const token = newToken();
    await add(token, { product_variant_id: tee, quantity: 2 });
    const res = await shipTo(token, place);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subTotal: '40.00', ...expected });
    const total =
      (40 * 100 + Math.round(Number(expected.tax) * 100) + Math.round(Number(expected.shippingFee) * 100)) / 100;
    expect(res.body.total).toBe(total.toFixed(2));
  });

  test("a new address re-prices the cart, and shipping is free from the zone's own threshold", async () => {
    const token = newToken();
    await add(token, { product_variant_id: bottle, quantity: 4 }); // 128.00
    expect((await shipTo(token, { country: 'US', state: 'IL' })).body).toMatchObject({ shippingFee: '0.00' });
    const canada = await shipTo(token, { country: 'CA', state: 'ON', zip: 'M5V 2T6' });
    expect(canada.body).toMatchObject({ subTotal: '128.00', shippingFee: '12.00', tax: '16.64', total: '156.64' });
    await add(token, { product_variant_id: bottle, quantity: 1 }); // 160.00
    expect((await api.call('GET', '/store_front/acme/cart', { token })).body).toMatchObject({
      shippingFee: '0.00',
      tax: '20.80',
      total: '180.80',
    });
  });
});

describe('postal codes by country (ADR 181)', () => {
  test.each([
    ['a US ZIP for a UK address', 'GB', '62701', 'Please enter a valid postal code, like EC1Y 8SY.'],
    ['letters for a US ZIP', 'US', 'ABCDE', 'Please enter a valid ZIP code, like 95014.'],
    ['a UK postcode for Canada', 'CA', 'SW1A 2AA', 'Please enter a valid postal code, like H3Z 2Y7.'],
  ])('%s is refused on its field, naming an example', async (_name, country, zip, message) => {
    const token = newToken();
    const res = await shipTo(token, { country, state: 'XX', zip });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message, errors: { zip: [message] } });
    expect((await api.call('GET', '/store_front/acme/cart', { token })).body.address).toBeNull();
  });

  test.each([
    ['a ZIP+4', 'US', '62701-1234'],
    ['a lower-case postcode without its space', 'GB', 'sw1a2aa'],
    ['any code where the country has no known format', 'AE', 'anything'],
  ])('%s is accepted', async (_name, country, zip) => {
    const res = await shipTo(newToken(), { country, state: 'XX', zip });
    expect(res.status).toBe(200);
    expect(res.body.address.zip).toBe(zip);
  });
});
