/**
 * Money beyond 32 bits: a cart total of $21,474,836.48 (2^31 cents) or more once answered 500 at
 * checkout. Every *_cents column is bigint (migration 0004); a card payment above the provider's limit
 * ($999,999.99) is refused with 422 before any intent is opened; amounts stay exact decimal strings.
 * Runs on PGlite (npm test) and PostgreSQL (the api project again with DATABASE_URL).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { importCatalog } from '../../src/server/catalog/import.ts';
import { report, split } from './support/figures.ts';
import { ADDRESS, CARDS, newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

const S = '/store_front/bigticket';
const LIMIT_MESSAGE = 'The total is above $999,999.99, the most one card payment can be. Please remove some items.';

let api: TestApp;
const sku: Record<string, string> = {};
const statuses: number[] = [];
const violations: string[] = [];

beforeAll(async () => {
  api = await startTestApp({ RATE_LIMIT_GIFT_CARD_PER_CLIENT: '1000', RATE_LIMIT_GIFT_CARD_PER_CART: '1000' });
  // No tax and no shipping: each total is exactly the sum of its lines.
  await importCatalog(
    api.db,
    parseCatalog({
      store: { slug: 'bigticket', title: 'Big Ticket', tax_rate_bps: 0, shipping_flat: '0.00' },
      products: [
        { id: 'yacht', name: 'Yacht', variants: [{ sku: 'YACHT', name: 'Default', price: '9999999.99', stock: 1000 }] },
        { id: 'car', name: 'Car', variants: [{ sku: 'CAR', name: 'Default', price: '999999.99', stock: 1000 }] },
        { id: 'pin', name: 'Pin', variants: [{ sku: 'PIN', name: 'Default', price: '0.01', stock: 1000 }] },
      ],
    }),
  );
  for (const name of ['YACHT', 'CAR', 'PIN']) sku[name] = await variantId(api.db, name, 'bigticket');
});

afterAll(async () => {
  report('big-total', {
    cases: statuses.length,
    answers: split(statuses),
    errors500: statuses.filter((s) => s >= 500).length,
    violations: violations.length,
  });
  await api?.close();
});

/** A cart holding these lines, with an address: ready to check out. */
async function cartOf(lines: [string, number][]): Promise<string> {
  const token = newToken();
  for (const [name, quantity] of lines) {
    const added = await api.call('POST', `${S}/cart/cart_line_items`, {
      token,
      body: { cart_line_item: { product_variant_id: sku[name], quantity } },
    });
    expect(added.status, added.text).toBe(201);
  }
  expect((await api.call('PUT', `${S}/cart`, { token, body: { cart: ADDRESS } })).status).toBe(200);
  return token;
}

async function checkout(token: string) {
  const answer = await api.call('POST', `${S}/cart/checkout`, { token });
  statuses.push(answer.status);
  if (answer.status >= 500) violations.push(`checkout → ${answer.status} ${answer.text}`);
  return answer;
}

test.each([
  [
    '$21,474,836.48 (2^31 cents) and beyond',
    [
      ['YACHT', 2],
      ['CAR', 2],
      ['PIN', 1],
    ] as [string, number][],
    '21999999.97',
  ],
  ['$29,999,999.97', [['YACHT', 3]] as [string, number][], '29999999.97'],
  ['$989,999,999.01 (99 yachts)', [['YACHT', 99]] as [string, number][], '989999999.01'],
  [
    'one cent above $999,999.99',
    [
      ['CAR', 1],
      ['PIN', 1],
    ] as [string, number][],
    '1000000.00',
  ],
])('a card total of %s is refused with 422 and a clear message; no intent is opened', async (_, lines, total) => {
  const token = await cartOf(lines);
  const cart = await api.call('GET', `${S}/cart`, { token });
  expect(cart.body.total).toBe(total);
  const answer = await checkout(token);
  expect(answer.status, answer.text).toBe(422);
  expect(answer.body).toEqual({ message: LIMIT_MESSAGE, errors: { cart: [LIMIT_MESSAGE] } });
  const cartRow = await api.db
    .selectFrom('carts')
    .select('payment_intent_id')
    .where('token', '=', token)
    .executeTakeFirstOrThrow();
  expect(cartRow.payment_intent_id).toBeNull();
});

test('a card total of exactly $999,999.99 is accepted: its intent is opened', async () => {
  const token = await cartOf([['CAR', 1]]);
  const answer = await checkout(token);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.paymentIntent.amount).toBe('999999.99');
});

test('an order of $29,999,999.97 paid with a gift card of $29,999,990.00 and $9.97 by card is stored and answered to the cent', async () => {
  const store = await api.db
    .selectFrom('stores')
    .select('id')
    .where('slug', '=', 'bigticket')
    .executeTakeFirstOrThrow();
  const cardId = crypto.randomUUID();
  await api.db
    .insertInto('gift_cards')
    .values({
      id: cardId,
      store_id: store.id,
      code: 'BIG-CARD-0001',
      balance_cents: 2_999_999_000,
      initial_cents: 2_999_999_000,
      expires_at: null,
    })
    .execute();
  const token = await cartOf([['YACHT', 3]]);
  expect(
    (await api.call('POST', `${S}/gift_cards/apply`, { token, body: { gift_card: { code: 'BIG-CARD-0001' } } })).status,
  ).toBe(200);

  const answer = await checkout(token);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.paymentIntent.amount).toBe('9.97');
  const intentId = answer.body.paymentIntent.id as string;
  expect(
    (await api.call('POST', `/test_processor/payment_intents/${intentId}/confirm`, { body: { card: CARDS.success } }))
      .body.status,
  ).toBe('succeeded');
  const order = await api.call('POST', `${S}/cart/finalize`, { token, body: { payment_intent_id: intentId } });
  statuses.push(order.status);
  expect(order.status, order.text).toBe(200);
  expect(order.body.orderDetails).toMatchObject({ subTotal: '29999999.97', total: '9.97' });

  const row = await api.db
    .selectFrom('orders')
    .select(['subtotal_cents', 'gift_cards_cents', 'total_cents'])
    .where('id', '=', order.body.orderDetails.id)
    .executeTakeFirstOrThrow();
  // Numbers, not strings, from both drivers (connect.ts): arithmetic on them stays exact below 2^53.
  expect(row).toEqual({ subtotal_cents: 2_999_999_997, gift_cards_cents: 2_999_999_000, total_cents: 997 });
  const card = await api.db
    .selectFrom('gift_cards')
    .select('balance_cents')
    .where('id', '=', cardId)
    .executeTakeFirstOrThrow();
  expect(card.balance_cents).toBe(0);
  const debit = await api.db
    .selectFrom('gift_card_debits')
    .select('amount_cents')
    .where('gift_card_id', '=', cardId)
    .executeTakeFirstOrThrow();
  expect(debit.amount_cents).toBe(2_999_999_000);
});

test('every money column (*_cents) is bigint', async () => {
  const columns = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select table_name, column_name, data_type from information_schema.columns
    where table_schema = current_schema() and column_name like '%\_cents' order by 1, 2`.execute(api.db);
  expect(columns.rows.length).toBeGreaterThanOrEqual(14);
  expect(columns.rows.filter((c) => c.data_type !== 'bigint')).toEqual([]);
});
