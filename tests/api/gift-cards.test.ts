import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADDRESS, newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
let tee: string;
let headphones: string;
beforeAll(async () => {
  api = await startTestApp({ RATE_LIMIT_GIFT_CARD_PER_CART: '6', RATE_LIMIT_GIFT_CARD_PER_CLIENT: '1000' });
  tee = await variantId(api.db, 'TEE-M-RED');
  headphones = await variantId(api.db, 'HEADPHONES');
  // An expired card, to show it answers like an unknown one.
  const store = await api.db.selectFrom('stores').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow();
  await api.db
    .insertInto('gift_cards')
    .values({
      id: crypto.randomUUID(),
      store_id: store.id,
      code: 'ACME-OLD',
      balance_cents: 1000,
      initial_cents: 1000,
      expires_at: new Date('2020-01-01T00:00:00Z'),
    })
    .execute();
});
afterAll(async () => api?.close());

const apply = (token: string, code: unknown) =>
  api.call('POST', '/store_front/acme/gift_cards/apply', { token, body: { gift_card: { code } } });
const add = (token: string, id: string, quantity = 1) =>
  api.call('POST', '/store_front/acme/cart/cart_line_items', {
    token,
    body: { cart_line_item: { product_variant_id: id, quantity } },
  });

describe('gift cards', () => {
  test('applying a card takes at most what is owed', async () => {
    const token = newToken();
    await api.call('PUT', '/store_front/acme/cart', { token, body: { cart: ADDRESS } });
    await add(token, tee); // 20.00 + 1.65 tax (Illinois) + 5.99 shipping = 27.64
    const res = await apply(token, 'acme-25');
    expect(res.status).toBe(200);
    expect(res.body.giftCards).toEqual([{ id: expect.any(String), code: 'ACME-25', amount: '25.00' }]);
    expect(res.body.total).toBe('2.64');
    const big = await apply(token, 'ACME-500');
    expect(big.body.giftCards.map((g: any) => g.amount)).toEqual(['25.00', '2.64']);
    expect(big.body.total).toBe('0.00');
    expect(big.body.requiresPayment).toBe(false);
  });

  test('applying the same card twice keeps one entry', async () => {
    const token = newToken();
    await add(token, headphones);
    await apply(token, 'ACME-25');
    const again = await apply(token, 'ACME-25');
    expect(again.body.giftCards).toHaveLength(1);
  });

  test('unknown, expired and empty codes answer byte-identical errors', async () => {
    const token = newToken();
    await add(token, tee);
    const answers = await Promise.all(
      ['NOPE-1234', 'ACME-OLD', 'ACME-ZERO', 'x'.repeat(80)].map((code) => apply(token, code)),
    );
    for (const a of answers) expect(a.status).toBe(422);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers[0]!.body).toEqual({
      message: 'This gift card is not valid or has no balance.',
      errors: { code: ['This gift card is not valid or has no balance.'] },
    });
  });

  test('a missing code is 422 and a code from another store does not apply', async () => {
    const token = newToken();
    const missing = await api.call('POST', '/store_front/acme/gift_cards/apply', { token, body: { gift_card: {} } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.code).toEqual(['Gift card code is required.']);
    expect((await apply(token, 42)).status).toBe(422);
  });

  test('removing a card gives its amount back to the total', async () => {
    const token = newToken();
    await api.call('PUT', '/store_front/acme/cart', { token, body: { cart: ADDRESS } });
    await add(token, tee);
    const applied = await apply(token, 'ACME-25');
    const id = applied.body.giftCards[0].id;
    const removed = await api.call('POST', `/store_front/acme/gift_cards/${id}/remove`, {
      token,
      body: { gift_card: { code: 'ACME-25' } },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.giftCards).toEqual([]);
    expect(removed.body.total).toBe('27.64');
    expect((await api.call('POST', `/store_front/acme/gift_cards/${id}/remove`, { token })).status).toBe(404);
    expect((await api.call('POST', `/store_front/acme/gift_cards/${id}/remove`, { token: newToken() })).status).toBe(
      404,
    );
  });

  test('code entry is rate limited per cart with 429 and Retry-After', async () => {
    const token = newToken();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 8; i++) {
      const res = await apply(token, `WRONG-${i}`);
      statuses.push(res.status);
      retryAfter ??= res.headers.get('retry-after');
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 422, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // Another cart is not throttled by this one.
    expect((await apply(newToken(), 'WRONG')).status).toBe(422);
  });
});
