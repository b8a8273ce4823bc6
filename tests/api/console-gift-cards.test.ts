/**
 * The console's gift cards (docs/decisions/199-console-catalog-and-gift-cards.md): a random code shown
 * once, then masked; the balance and its ledger (issue, redemptions, adjustments, disabling); and a
 * disabled card refused at apply and at checkout with the answer of an unusable code.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { finalize, pay, readyCart, S } from './support/shopper.ts';
import { operatorOf, type Operator } from './support/operator.ts';
import { startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
let editor: Operator;
let owner: Operator;
let tee: string;

beforeAll(async () => {
  api = await startTestApp({ RATE_LIMIT_GIFT_CARD_PER_CLIENT: '1000' });
  editor = await operatorOf(api, 'acme', 'editor@acme.test', 'editor');
  owner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
  tee = await variantId(api.db, 'TEE-M-RED');
});
afterAll(async () => api?.close());

const G = '/admin/stores/acme/gift_cards';
const UNUSABLE = 'This gift card is not valid or has no balance.';

const issue = async (amount: string) => {
  const answer = await editor.call('POST', G, { body: { amount, note: 'Raffle prize' } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.data as { id: string; code: string; balance: string };
};

describe('issuing', () => {
  test('a card gets a random 16-character code, shown in full once and masked afterwards', async () => {
    const card = await issue('25');
    expect(card.code).toMatch(/^[A-Z2-7]{16}$/);
    expect(card.balance).toBe('25.00');
    const other = await issue('25');
    expect(other.code).not.toBe(card.code);

    const masked = `${'•'.repeat(12)}${card.code.slice(-4)}`;
    const detail = await editor.call('GET', `${G}/${card.id}`);
    expect(detail.body.data.code).toBe(masked);
    const list = await editor.call('GET', G);
    expect(list.body.data.find((c: { id: string }) => c.id === card.id).code).toBe(masked);
    expect(list.text).not.toContain(card.code);
    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.text).not.toContain(card.code);
    const issued = audit.body.data.find((e: { entity_id: string }) => e.entity_id === card.id);
    expect(issued).toMatchObject({ action: 'gift_card.issue', after: { code: masked, balance: '25.00' } });
  });

  test('the amount is validated next to its field', async () => {
    for (const amount of ['0', '-5', '12.345', 'ten', '10000.01']) {
      const answer = await editor.call('POST', G, { body: { amount } });
      expect(answer.status).toBe(422);
      expect(answer.body.errors.amount).toEqual(['Amount must be an amount like 25.00, from 0.01 to 10000.00.']);
    }
  });

  test('a shopper can apply an issued card by its code', async () => {
    const card = await issue('10');
    const token = await readyCart(api, tee, 1, card.code.toLowerCase());
    const cart = await api.call('GET', `${S}/cart`, { token });
    expect(cart.body.giftCards).toEqual([{ id: card.id, code: card.code, amount: '10.00' }]);
  });
});

describe('the ledger', () => {
  test('shows the issue, an order’s redemption and adjustments, newest first, and the balance follows', async () => {
    const card = await issue('10');
    const token = await readyCart(api, tee, 1, card.code);
    const order = await finalize(api, token, await pay(api, token));
    expect(order.status, order.text).toBe(200);

    const adjusted = await editor.call('POST', `${G}/${card.id}/adjustments`, {
      body: { change: '5', note: 'Goodwill after a late delivery' },
    });
    expect(adjusted.status, adjusted.text).toBe(200);
    expect(adjusted.body.data.balance).toBe('5.00');
    expect(adjusted.body.data.ledger.map((e: { kind: string; amount: string }) => [e.kind, e.amount])).toEqual([
      ['adjustment', '5.00'],
      ['redemption', '-10.00'],
      ['issue', '10.00'],
    ]);
    expect(adjusted.body.data.ledger[1].order_number).toEqual(expect.any(Number));
    expect(adjusted.body.data.ledger[0]).toMatchObject({
      actor: 'editor@acme.test',
      note: 'Goodwill after a late delivery',
    });
  });

  test('an adjustment never takes the balance below zero and needs a note', async () => {
    const card = await issue('5');
    const below = await editor.call('POST', `${G}/${card.id}/adjustments`, { body: { change: '-5.01', note: 'x' } });
    expect(below.status).toBe(422);
    expect(below.body.errors.change).toEqual(['The balance is $5.00: a change can take at most that much away.']);
    const noNote = await editor.call('POST', `${G}/${card.id}/adjustments`, { body: { change: '-1' } });
    expect(noNote.body.errors).toEqual({ note: ['Say why the balance changes.'] });
    const zero = await editor.call('POST', `${G}/${card.id}/adjustments`, { body: { change: '0', note: 'x' } });
    expect(zero.body.errors.change).toEqual(['Change must be an amount like 5.00 or -5.00, not 0.']);
    expect((await editor.call('GET', `${G}/${card.id}`)).body.data.balance).toBe('5.00');
  });

  test('concurrent adjustments all count', async () => {
    const card = await issue('50');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? owner : editor).call('POST', `${G}/${card.id}/adjustments`, {
          body: { change: i % 2 ? '-2.50' : '1.00', note: `change ${i}` },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect((await editor.call('GET', `${G}/${card.id}`)).body.data.balance).toBe('45.50');
  });
});

describe('disabling', () => {
  test('a disabled card is refused at apply and at checkout with the unusable-code answer', async () => {
    const card = await issue('10');
    const token = await readyCart(api, tee, 1, card.code);
    const disabled = await editor.call('POST', `${G}/${card.id}/disable`, { body: { note: 'Reported stolen' } });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.data.disabled).toBe(true);
    expect(disabled.body.data.ledger[0]).toMatchObject({ kind: 'disable', note: 'Reported stolen' });

    const checkout = await api.call('POST', `${S}/cart/checkout`, { token });
    expect(checkout.status).toBe(422);
    expect(checkout.body).toEqual({ message: UNUSABLE, errors: { code: [UNUSABLE] } });
    // It counts for nothing meanwhile: the cart's total is what it would be without it.
    const cart = await api.call('GET', `${S}/cart`, { token });
    expect(cart.body.giftCards[0].amount).toBe('0.00');

    const fresh = await readyCart(api, tee, 1);
    const applied = await api.call('POST', `${S}/gift_cards/apply`, {
      token: fresh,
      body: { gift_card: { code: card.code } },
    });
    expect(applied.status).toBe(422);
    expect(applied.body).toEqual({ message: UNUSABLE, errors: { code: [UNUSABLE] } });

    const again = await editor.call('POST', `${G}/${card.id}/disable`, { body: {} });
    expect(again.status).toBe(409);
    const adjust = await editor.call('POST', `${G}/${card.id}/adjustments`, { body: { change: '1', note: 'x' } });
    expect(adjust.status).toBe(409);
    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.body.data[0]).toMatchObject({
      action: 'gift_card.disable',
      entity_id: card.id,
      before: { disabled: false },
      after: { disabled: true, note: 'Reported stolen' },
    });
  });

  test('a card paying a whole order, disabled before finalize, is refused and not debited', async () => {
    const card = await issue('100');
    const token = await readyCart(api, tee, 1, card.code);
    const checkout = await api.call('POST', `${S}/cart/checkout`, { token });
    expect(checkout.body.requiresPayment).toBe(false);
    await editor.call('POST', `${G}/${card.id}/disable`, { body: {} });
    const order = await finalize(api, token);
    expect(order.status).toBe(422);
    expect(order.body.errors).toEqual({ code: [UNUSABLE] });
    expect((await editor.call('GET', `${G}/${card.id}`)).body.data.balance).toBe('100.00');
  });

  test('another store’s card is 404', async () => {
    const card = await issue('5');
    const vipOwner = await operatorOf(api, 'vip', 'owner@vip.test', 'owner');
    expect((await vipOwner.call('GET', `/admin/stores/vip/gift_cards/${card.id}`)).status).toBe(404);
    expect((await vipOwner.call('POST', `/admin/stores/vip/gift_cards/${card.id}/disable`, { body: {} })).status).toBe(
      404,
    );
    expect((await vipOwner.call('GET', `${G}/${card.id}`)).status).toBe(404);
    expect((await editor.call('GET', `${G}/${card.id}`)).body.data.disabled).toBe(false);
  });
});
