/**
 * The console's orders (docs/decisions/198-console-orders.md): the filtered list, one order, refunds
 * in part and in full through the payment provider (never more than was paid, even at once), gift
 * cards credited back, stock returned, fulfilment with its mail, roles and store isolation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PaymentProviderError } from '../../src/server/payments/provider.ts';
import { reconcileOnce } from '../../src/server/reconciliation/reconcile.ts';
import { operatorOf, type Operator } from './support/operator.ts';
import { acmeId, giftCard, S, stockedVariant, stockOf } from './support/shopper.ts';
import { ADDRESS, CARDS, newToken, startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
let owner: Operator;
let editor: Operator;
let vipOwner: Operator;
const O = '/admin/stores/acme/orders';
/** Set by a test: the provider's next refund is made, then its answer lost (a timeout). */
let loseNextRefundAnswer = false;

beforeAll(async () => {
  api = await startTestApp(
    {},
    {
      wrapPayments: (processor) => ({
        ...processor,
        async refundIntent(id, key, amountCents) {
          await processor.refundIntent(id, key, amountCents);
          if (!loseNextRefundAnswer) return;
          loseNextRefundAnswer = false;
          throw new PaymentProviderError('the refund answer was lost');
        },
      }),
    },
  );
  owner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
  editor = await operatorOf(api, 'acme', 'editor@acme.test', 'editor');
  vipOwner = await operatorOf(api, 'vip', 'owner@vip.test', 'owner');
});
afterAll(async () => {
  await api.close();
});

type Placed = { id: string; number: string; variant: string; lineId: string; intentId: string | null };

/** A shopper's order of `quantity` units at `priceCents` (a product of its own), paid by card after any gift card. */
async function placeOrder(
  options: { priceCents?: number; quantity?: number; email?: string; giftCode?: string } = {},
): Promise<Placed> {
  const variant = await stockedVariant(api, 10, { priceCents: options.priceCents ?? 2000 });
  const token = newToken();
  const added = await api.call('POST', `${S}/cart/cart_line_items`, {
    token,
    body: { cart_line_item: { product_variant_id: variant, quantity: options.quantity ?? 2 } },
  });
  expect(added.status).toBe(201);
  const address = { ...ADDRESS, email: options.email ?? ADDRESS.email };
  expect((await api.call('PUT', `${S}/cart`, { token, body: { cart: address } })).status).toBe(200);
  if (options.giftCode)
    expect(
      (await api.call('POST', `${S}/gift_cards/apply`, { token, body: { gift_card: { code: options.giftCode } } }))
        .status,
    ).toBe(200);
  const checkout = await api.call('POST', `${S}/cart/checkout`, { token });
  expect(checkout.status, checkout.text).toBe(200);
  const intentId = (checkout.body.paymentIntent?.id as string | undefined) ?? null;
  if (intentId)
    await api.call('POST', `/test_processor/payment_intents/${intentId}/confirm`, { body: { card: CARDS.success } });
  const order = await api.call('POST', `${S}/cart/finalize`, {
    token,
    ...(intentId ? { body: { payment_intent_id: intentId } } : {}),
  });
  expect(order.status, order.text).toBe(200);
  const details = order.body.orderDetails;
  return { id: details.id, number: details.number, variant, lineId: details.cartItems[0].id, intentId };
}

const refund = (who: Operator, orderId: string, body: Record<string, unknown>) =>
  who.call('POST', `${O}/${orderId}/refunds`, { body: { idempotency_key: crypto.randomUUID(), ...body } });

const intentRefunded = async (intentId: string) =>
  (
    await api.db
      .selectFrom('payment_intents')
      .select(['amount_cents', 'refunded_cents'])
      .where('id', '=', intentId)
      .executeTakeFirstOrThrow()
  ).refunded_cents;

const mailsKeyed = (prefix: string) =>
  api.db.selectFrom('mail_outbox').selectAll().where('dedupe_key', 'like', `${prefix}%`).orderBy('id').execute();

describe('the order list', () => {
  test('lists newest first and filters by search, number, email, status and dates, the filters combined', async () => {
    const email = `list-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const older = await placeOrder({ email });
    const newer = await placeOrder({ email });
    const list = await owner.call('GET', `${O}?email=${encodeURIComponent(email)}`);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([newer.id, older.id]);
    expect(list.body.meta).toEqual({ total: 2, page: 1, perPage: 25 });
    expect(list.body.data[0]).toMatchObject({
      number: newer.number,
      email,
      name: 'Ada Lovelace',
      payment_status: 'paid',
      fulfillment_status: 'unfulfilled',
      items: 2,
    });

    const byNumber = await owner.call('GET', `${O}?number=${older.number}`);
    expect(byNumber.body.data.map((o: { id: string }) => o.id)).toEqual([older.id]);
    const bySearch = await owner.call('GET', `${O}?q=${email.slice(0, 13).toUpperCase()}`);
    expect(bySearch.body.data.map((o: { id: string }) => o.id)).toEqual([newer.id, older.id]);
    const bySearchedNumber = await owner.call('GET', `${O}?q=${newer.number.slice(2)}`);
    expect(bySearchedNumber.body.data.map((o: { id: string }) => o.id)).toContain(newer.id);

    await api.db
      .updateTable('orders')
      .set({ created_at: new Date('2026-01-15T12:00:00Z') })
      .where('id', '=', older.id)
      .execute();
    const january = await owner.call('GET', `${O}?email=${email}&from=2026-01-15&to=2026-01-15`);
    expect(january.body.data.map((o: { id: string }) => o.id)).toEqual([older.id]);
    const since = await owner.call('GET', `${O}?email=${email}&from=2026-01-16`);
    expect(since.body.data.map((o: { id: string }) => o.id)).toEqual([newer.id]);

    expect((await refund(owner, older.id, { amount: '1.00' })).status).toBe(201);
    const partly = await owner.call('GET', `${O}?email=${email}&status=partially_refunded`);
    expect(partly.body.data.map((o: { id: string }) => o.id)).toEqual([older.id]);
    const unrefunded = await owner.call('GET', `${O}?email=${email}&status=paid&from=&q=`);
    expect(unrefunded.body.data.map((o: { id: string }) => o.id)).toEqual([newer.id]);
    expect((await owner.call('GET', `${O}?email=${email}&status=fulfilled`)).body.data).toEqual([]);
  });

  test('bad filters are field errors', async () => {
    const bad = await owner.call('GET', `${O}?from=2026-13-45&status=lost&number=xyz`);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['from', 'number', 'status']);
    const backwards = await owner.call('GET', `${O}?from=2026-02-01&to=2026-01-01`);
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors.to).toEqual(['The end date must be on or after the start date.']);
  });
});

describe('one order', () => {
  test('shows its lines and variants, amounts, payment, gift cards, address and history', async () => {
    const card = await giftCard(api, 1000, 'DET');
    const placed = await placeOrder({ priceCents: 2000, quantity: 2, giftCode: card.code });
    const answer = await owner.call('GET', `${O}/${placed.id}`);
    expect(answer.status).toBe(200);
    const order = answer.body.data;
    expect(order.lines).toEqual([
      expect.objectContaining({
        id: placed.lineId,
        product_variant_id: placed.variant,
        sku: expect.stringMatching(/^STOCK-/),
        quantity: 2,
        unit_price: '20.00',
        price: '40.00',
        bundle: null,
        restocked: false,
      }),
    ]);
    expect(order).toMatchObject({
      number: placed.number,
      subtotal: '40.00',
      gift_cards_total: '10.00',
      gift_cards: [{ code: card.code, amount: '10.00' }],
      payment: { provider: 'test', payment_intent_id: placed.intentId },
      address: { email: ADDRESS.email, city: 'Springfield' },
      fulfillment: null,
      refunds: [],
      history: [{ event: 'placed' }],
    });
    expect(order.refundable).toBe(order.paid);
    expect(Number(order.card_total) + 10).toBeCloseTo(Number(order.paid), 2);
  });

  test('an unknown or malformed id is 404', async () => {
    expect((await owner.call('GET', `${O}/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await owner.call('GET', `${O}/42`)).status).toBe(404);
  });
});

describe('refunds', () => {
  test('a partial refund, then the rest: the card is refunded, stock restocked, the shopper mailed, each audited', async () => {
    const placed = await placeOrder({ priceCents: 2000, quantity: 2 });
    const paid = (await owner.call('GET', `${O}/${placed.id}`)).body.data.paid as string;
    const stockBefore = await stockOf(api, placed.variant);

    const first = await refund(owner, placed.id, { amount: '5.00' });
    expect(first.status, first.text).toBe(201);
    expect(first.body.data).toMatchObject({ refunded: '5.00', payment_status: 'partially_refunded' });
    expect(await intentRefunded(placed.intentId!)).toBe(500);
    expect(await stockOf(api, placed.variant)).toBe(stockBefore);

    const restOfIt = (Number(paid) - 5).toFixed(2);
    const second = await refund(owner, placed.id, { amount: restOfIt, restock: [placed.lineId] });
    expect(second.status, second.text).toBe(201);
    expect(second.body.data).toMatchObject({ refunded: paid, refundable: '0.00', payment_status: 'refunded' });
    expect(second.body.data.lines[0].restocked).toBe(true);
    expect(second.body.data.refunds).toHaveLength(2);
    expect(second.body.data.history.map((h: { event: string }) => h.event)).toEqual(['placed', 'refunded', 'refunded']);
    expect(await intentRefunded(placed.intentId!)).toBe(Math.round(Number(paid) * 100));
    expect(await stockOf(api, placed.variant)).toBe(stockBefore + 2);
    const adjustments = await api.db
      .selectFrom('stock_adjustments')
      .select(['delta', 'stock_after', 'reason', 'note', 'actor'])
      .where('variant_id', '=', Number(placed.variant))
      .execute();
    expect(adjustments).toEqual([
      {
        delta: 2,
        stock_after: stockBefore + 2,
        reason: 'other',
        note: `Refund of order ${placed.number}`,
        actor: 'owner@acme.test',
      },
    ]);

    const mails = await mailsKeyed('order-refund:');
    const mine = mails.filter((m) => m.text_body.includes(placed.number));
    expect(mine.map((m) => m.subject)).toEqual([
      expect.stringContaining('A refund of $5.00'),
      expect.stringContaining(`A refund of $${restOfIt}`),
    ]);
    expect(mine[1]!.text_body).toContain(`Refunded in all`);
    expect(mine[1]!.to_address).toBe(ADDRESS.email);

    const audit = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', placed.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.action, a.actor])).toEqual([
      ['order.refund', 'owner@acme.test'],
      ['order.refund', 'owner@acme.test'],
    ]);
    expect(audit[1]!.before).toEqual({ refunded: '5.00', payment_status: 'partially_refunded' });
    expect(audit[1]!.after).toMatchObject({ refunded: paid, payment_status: 'refunded' });

    const shopper = await api.call('GET', `/cart/${placed.id}`);
    expect(shopper.body.orderDetails).toMatchObject({ status: 'refunded', refunded: paid });
  });

  test('more than is left to refund is refused with 422 on the amount, and nothing is written', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    const paid = (await owner.call('GET', `${O}/${placed.id}`)).body.data.paid as string;
    const tooMuch = await refund(owner, placed.id, { amount: (Number(paid) + 0.01).toFixed(2) });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.amount).toEqual([`You can refund at most $${paid}.`]);
    for (const amount of ['0', '-1', '1.234', 'ten', 12])
      expect((await refund(owner, placed.id, { amount })).body.errors?.amount, String(amount)).toHaveLength(1);
    const badLine = await refund(owner, placed.id, { amount: '1.00', restock: ['not-a-line'] });
    expect(badLine.body.errors.restock).toEqual(['Choose lines of this order.']);
    expect(await intentRefunded(placed.intentId!)).toBe(0);
    expect(await api.db.selectFrom('order_refunds').where('order_id', '=', placed.id).selectAll().execute()).toEqual(
      [],
    );
  });

  test('the same idempotency key twice (a double click) refunds once', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    const body = { amount: '3.00', idempotency_key: crypto.randomUUID() };
    const [a, b] = await Promise.all([
      owner.call('POST', `${O}/${placed.id}/refunds`, { body }),
      owner.call('POST', `${O}/${placed.id}/refunds`, { body }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const again = await owner.call('POST', `${O}/${placed.id}/refunds`, { body });
    expect(again.body.data).toMatchObject({ refunded: '3.00' });
    expect(again.body.data.refunds).toHaveLength(1);
    expect(await intentRefunded(placed.intentId!)).toBe(300);
    const other = await owner.call('POST', `${O}/${placed.id}/refunds`, { body: { ...body, amount: '4.00' } });
    expect(other.status).toBe(422);
    expect(other.body.errors.idempotency_key).toHaveLength(1);
  });

  test('a refund whose provider answer was lost stays owed, counts against what is left, and the same request settles it once', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    const paid = (await owner.call('GET', `${O}/${placed.id}`)).body.data.paid as string;
    const body = { amount: '4.00', idempotency_key: crypto.randomUUID() };
    loseNextRefundAnswer = true;
    const lost = await owner.call('POST', `${O}/${placed.id}/refunds`, { body });
    expect(lost.status).toBe(502);
    const owed = (await owner.call('GET', `${O}/${placed.id}`)).body.data;
    expect(owed).toMatchObject({ refunded: '0.00', payment_status: 'paid', refunds: [{ settled: false }] });
    expect(owed.refundable).toBe((Number(paid) - 4).toFixed(2));
    expect((await refund(owner, placed.id, { amount: paid })).status).toBe(422);
    expect(await mailsKeyed(`order-refund:`)).not.toContainEqual(
      expect.objectContaining({ subject: expect.stringContaining(placed.number) }),
    );

    const retried = await owner.call('POST', `${O}/${placed.id}/refunds`, { body });
    expect(retried.status).toBe(201);
    expect(retried.body.data).toMatchObject({ refunded: '4.00', refunds: [{ settled: true }] });
    expect(await intentRefunded(placed.intentId!)).toBe(400);
  });

  test('an owner’s “Try again” on a refund whose answer was lost settles it once; editors cannot', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    loseNextRefundAnswer = true;
    expect((await refund(owner, placed.id, { amount: '3.00' })).status).toBe(502);
    const owed = (await owner.call('GET', `${O}/${placed.id}`)).body.data.refunds[0];
    expect(owed).toMatchObject({ settled: false });
    const retry = `${O}/${placed.id}/refunds/${owed.id}/retry`;

    expect((await editor.call('POST', retry)).status).toBe(403);
    expect((await vipOwner.call('POST', `/admin/stores/vip/orders/${placed.id}/refunds/${owed.id}/retry`)).status).toBe(
      404,
    );
    const tried = await owner.call('POST', retry);
    expect(tried.status, tried.text).toBe(200);
    expect(tried.body.data).toMatchObject({ refunded: '3.00', refunds: [{ id: owed.id, settled: true }] });
    // Pressed again (two tabs): the refund is already settled, nothing more is given back.
    expect((await owner.call('POST', retry)).body.data).toMatchObject({ refunded: '3.00' });
    expect(await intentRefunded(placed.intentId!)).toBe(300);
    expect((await owner.call('POST', `${O}/${placed.id}/refunds/999999/retry`)).status).toBe(404);
  });

  test('the reconciliation job settles a refund whose answer was lost, a minute after it was asked for', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    loseNextRefundAnswer = true;
    expect((await refund(owner, placed.id, { amount: '2.00' })).status).toBe(502);
    // Its own request may still be finishing: the job leaves it alone for a minute.
    expect((await reconcileOnce(api.deps)).consoleRefunds).toEqual({ tried: 0, settled: 0 });
    api.clock.offsetMs += 61_000;
    try {
      expect((await reconcileOnce(api.deps)).consoleRefunds).toEqual({ tried: 1, settled: 1 });
      expect((await owner.call('GET', `${O}/${placed.id}`)).body.data).toMatchObject({
        refunded: '2.00',
        refunds: [{ settled: true }],
      });
      expect(await intentRefunded(placed.intentId!)).toBe(200);
      expect((await reconcileOnce(api.deps)).consoleRefunds).toEqual({ tried: 0, settled: 0 });
      const audit = await api.db
        .selectFrom('audit_log')
        .select(['actor', 'operator_id'])
        .where('action', '=', 'order.refund')
        .where('entity_id', '=', placed.id)
        .execute();
      expect(audit).toEqual([{ actor: 'owner@acme.test', operator_id: expect.any(Number) }]);
    } finally {
      api.clock.offsetMs -= 61_000;
    }
  });

  test('refunds at once never give back more than was paid', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    const paidCents = Math.round(Number((await owner.call('GET', `${O}/${placed.id}`)).body.data.paid) * 100);
    const share = ((Math.ceil(paidCents * 0.6) + 0) / 100).toFixed(2);
    const answers = await Promise.all(Array.from({ length: 4 }, () => refund(owner, placed.id, { amount: share })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422]);
    const order = await api.db
      .selectFrom('orders')
      .select('refunded_cents')
      .where('id', '=', placed.id)
      .executeTakeFirstOrThrow();
    expect(order.refunded_cents).toBe(Math.round(Number(share) * 100));
    expect(await intentRefunded(placed.intentId!)).toBe(order.refunded_cents);
  });

  test('past the card’s part, a refund credits the gift cards that paid back', async () => {
    const card = await giftCard(api, 1500, 'RFD');
    const placed = await placeOrder({ priceCents: 1000, quantity: 2, giftCode: card.code });
    const order = (await owner.call('GET', `${O}/${placed.id}`)).body.data;
    const cardCents = Math.round(Number(order.card_total) * 100);
    const answer = await refund(owner, placed.id, { amount: ((cardCents + 400) / 100).toFixed(2) });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.refunds[0]).toMatchObject({
      card_amount: order.card_total,
      gift_card_amount: '4.00',
    });
    expect(await intentRefunded(placed.intentId!)).toBe(cardCents);
    const balance = await api.db
      .selectFrom('gift_cards')
      .select('balance_cents')
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(balance.balance_cents).toBe(400);
    const ledger = await api.db
      .selectFrom('gift_card_events')
      .select(['kind', 'amount_cents', 'balance_after_cents', 'note'])
      .where('gift_card_id', '=', card.id)
      .execute();
    expect(ledger).toEqual([
      { kind: 'adjustment', amount_cents: 400, balance_after_cents: 400, note: `Refund of order ${placed.number}` },
    ]);
  });

  test('an order paid by gift card alone is refunded to the card without asking the payment provider', async () => {
    const card = await giftCard(api, 100_000, 'ALL');
    const placed = await placeOrder({ priceCents: 1000, quantity: 1, giftCode: card.code });
    expect(placed.intentId).toBeNull();
    const order = (await owner.call('GET', `${O}/${placed.id}`)).body.data;
    expect(order).toMatchObject({ payment: null, card_total: '0.00' });
    const answer = await refund(owner, placed.id, { amount: order.paid });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data).toMatchObject({ payment_status: 'refunded', refunds: [{ card_amount: '0.00' }] });
    const balance = await api.db
      .selectFrom('gift_cards')
      .select('balance_cents')
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(balance.balance_cents).toBe(100_000);
  });

  test('the test processor, as Stripe, takes a repeated key once and never refunds past the payment', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    const intent = placed.intentId!;
    await api.payments.refundIntent(intent, 'tp-key-1', 100);
    await api.payments.refundIntent(intent, 'tp-key-1', 100);
    expect(await intentRefunded(intent)).toBe(100);
    await expect(api.payments.refundIntent(intent, 'tp-key-2', 1_000_000)).rejects.toThrow(/cannot be refunded/);
    expect(await intentRefunded(intent)).toBe(100);
  });

  test('editors cannot refund', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    const answer = await refund(editor, placed.id, { amount: '1.00' });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe('Only the store’s owners can do this.');
    expect(await intentRefunded(placed.intentId!)).toBe(0);
  });

  test('a write without the session’s CSRF token is refused', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    const answer = await api.call('POST', `${O}/${placed.id}/refunds`, {
      body: { amount: '1.00', idempotency_key: crypto.randomUUID() },
      headers: { cookie: owner.cookie, origin: new URL(api.baseUrl).origin },
    });
    expect(answer.status).toBe(403);
  });
});

describe('fulfilment', () => {
  test('an editor marks an order fulfilled: the shopper is mailed the carrier and tracking number, and it is audited', async () => {
    const placed = await placeOrder();
    const missing = await editor.call('POST', `${O}/${placed.id}/fulfillment`, { body: { carrier: ' ' } });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['carrier', 'tracking_number']);

    const answer = await editor.call('POST', `${O}/${placed.id}/fulfillment`, {
      body: { carrier: 'UPS', tracking_number: '1Z999AA10123456784' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toMatchObject({
      fulfillment_status: 'fulfilled',
      fulfillment: { carrier: 'UPS', tracking_number: '1Z999AA10123456784' },
    });
    const mail = (await mailsKeyed(`order-shipped:${placed.id}`))[0]!;
    expect(mail.to_address).toBe(ADDRESS.email);
    expect(mail.subject).toContain(`order ${placed.number} has shipped`);
    expect(mail.text_body).toContain('1Z999AA10123456784');
    expect(mail.html_body).toContain('UPS');
    const delivered = await api.mail.next();
    expect(delivered).toBeDefined();

    const again = await owner.call('POST', `${O}/${placed.id}/fulfillment`, {
      body: { carrier: 'DHL', tracking_number: '123' },
    });
    expect(again.status).toBe(409);
    const audit = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', placed.id)
      .where('action', '=', 'order.fulfil')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actor).toBe('editor@acme.test');
    expect(audit[0]!.before).toEqual({ fulfillment: null });

    const shopper = await api.call('GET', `/cart/${placed.id}`);
    expect(shopper.body.orderDetails.fulfillment).toMatchObject({
      carrier: 'UPS',
      trackingNumber: '1Z999AA10123456784',
    });
  });
});

describe('store isolation', () => {
  test('another store’s order is 404, through either store, and nothing changes', async () => {
    const placed = await placeOrder({ priceCents: 1000, quantity: 1 });
    for (const slug of ['acme', 'vip']) {
      const base = `/admin/stores/${slug}/orders/${placed.id}`;
      expect((await vipOwner.call('GET', base)).status).toBe(404);
      expect(
        (await vipOwner.call('POST', `${base}/refunds`, { body: { amount: '1.00', idempotency_key: 'abcdefgh12' } }))
          .status,
      ).toBe(404);
      expect(
        (await vipOwner.call('POST', `${base}/fulfillment`, { body: { carrier: 'UPS', tracking_number: '1' } })).status,
      ).toBe(404);
    }
    const vipList = await vipOwner.call('GET', '/admin/stores/vip/orders');
    expect(vipList.body.data.map((o: { id: string }) => o.id)).not.toContain(placed.id);
    const order = await api.db
      .selectFrom('orders')
      .select(['refunded_cents', 'fulfilled_at', 'store_id'])
      .where('id', '=', placed.id)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ refunded_cents: 0, fulfilled_at: null, store_id: await acmeId(api) });
  });
});
