/**
 * Reliability (docs/reliability.md), faults: PostgreSQL restarted while orders are being placed. During the outage the API
 * answers 503 (never 500, never a hang), it recovers by itself, and no paid order is lost: the
 * shopper's retry or the Stripe webhook finalizes every payment the provider took.
 *
 * Restarts the machine's PostgreSQL (`pg_ctlcluster 15 main`, as root): run with `npm run
 * test:reliability`, never beside other suites using the same server.
 */
import { execFileSync } from 'node:child_process';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newToken, startPgApi, WEBHOOK_SECRET, type PgApi } from './support/pg-api.ts';

const CLUSTER = (process.env.PG_CLUSTER ?? '15 main').split(' ');
const pgctl = (action: 'stop' | 'start') =>
  execFileSync(
    'pg_ctlcluster',
    ['--skip-systemctl-redirect', ...CLUSTER, action, ...(action === 'stop' ? ['-m', 'fast'] : [])],
    { stdio: 'pipe' },
  );

const ADDRESS = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  address_line1: '12 Analytical Way',
  city: 'Springfield',
  country: 'US',
  state: 'IL',
  zip: '62701',
};
const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' };

let api: PgApi;
beforeAll(async () => {
  api = await startPgApi();
});
afterAll(async () => {
  // Whatever happened, leave PostgreSQL running for whoever comes next.
  try {
    pgctl('start');
  } catch {
    // Already running.
  }
  await api?.close();
});

const statuses = new Map<number, number>();
const during: number[] = [];
let outage = false;

async function call(method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = {};
  if (token) headers['recipient-token'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  if (outage) during.push(response.status);
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Repeats a call while the API answers 503 (as the storefront's retry policy does), up to 60 s. */
async function retrying(method: string, path: string, token?: string, body?: unknown) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await call(method, path, token, body);
    if (answer.status !== 503 || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

type Journey = {
  token: string;
  intentId?: string;
  paid: boolean;
  order?: string;
  /** Shoppers who close the tab after paying: only the webhook can finalize them. */
  leaves: boolean;
};

async function shop(journey: Journey, variant: string) {
  const { token } = journey;
  await retrying('POST', '/store_front/acme/cart/cart_line_items', token, {
    cart_line_item: { product_variant_id: variant, quantity: 1 },
  });
  await retrying('PUT', '/store_front/acme/cart', token, { cart: ADDRESS });
  const checkout = await retrying('POST', '/store_front/acme/cart/checkout', token);
  journey.intentId = checkout.body.paymentIntent.id;
  const confirmed = await retrying('POST', `/test_processor/payment_intents/${journey.intentId}/confirm`, undefined, {
    card: CARD,
  });
  journey.paid = confirmed.status === 200 && confirmed.body.status === 'succeeded';
  if (journey.leaves) return;
  const order = await retrying('POST', '/store_front/acme/cart/finalize', token, {
    payment_intent_id: journey.intentId,
  });
  if (order.status === 200) journey.order = order.body.orderDetails.id;
}

test('PostgreSQL restarted while 40 shoppers place orders (8 of them leaving after paying): 503 during the outage, recovery without help, no paid order lost', async () => {
  const variants = (await call('GET', '/store_front/acme/products/1/product_variants')).body.data
    .filter((v: { attributes: { stock: number } }) => v.attributes.stock >= 10)
    .map((v: { id: string }) => v.id);
  const journeys: Journey[] = Array.from({ length: 32 }, () => ({ token: newToken(), paid: false, leaves: false }));
  // Eight shoppers pay before the outage and press "Place order" while the database is down: one
  // attempt (503), then they close the tab. Only the webhook can finalize their orders.
  const leavers: Journey[] = Array.from({ length: 8 }, () => ({ token: newToken(), paid: false, leaves: true }));
  await Promise.all(leavers.map((j, i) => shop(j, variants[i % variants.length])));
  journeys.push(...leavers);

  const shopping = Promise.all(
    journeys
      .filter((j) => !j.leaves)
      .map(async (j, i) => {
        // Staggered arrivals, so journeys are at every step when the database goes away.
        await new Promise((resolve) => setTimeout(resolve, i * 40));
        await shop(j, variants[i % variants.length]);
      }),
  );

  await new Promise((resolve) => setTimeout(resolve, 500));
  outage = true;
  const stoppedAt = performance.now();
  pgctl('stop');
  // While it is down, a cart read must answer 503 at once.
  const probe = await call('GET', '/store_front/acme/cart', journeys[0]!.token);
  const leaverAttempts = await Promise.all(
    leavers.map((j) => call('POST', '/store_front/acme/cart/finalize', j.token, { payment_intent_id: j.intentId })),
  );
  await new Promise((resolve) => setTimeout(resolve, 2000));
  pgctl('start');
  const startedAt = performance.now();
  // The API recovers by itself: the first good answer after the server is back.
  let recoveredMs = -1;
  while (recoveredMs < 0 && performance.now() - startedAt < 30_000) {
    const answer = await call('GET', '/store_front/acme');
    if (answer.status === 200) recoveredMs = performance.now() - startedAt;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  outage = false;
  await shopping;

  // The shoppers who left: Stripe's webhook arrives after the outage and finalizes their payments.
  const db = api.runtime.db;
  for (const j of journeys.filter((x) => x.paid && !x.order)) {
    const cart = await db.selectFrom('carts').select('id').where('token', '=', j.token).executeTakeFirstOrThrow();
    const payload = JSON.stringify({
      id: `evt_${crypto.randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: { id: j.intentId, object: 'payment_intent', status: 'succeeded', metadata: { cart_id: cart.id } },
      },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const delivered = await fetch(`${api.baseUrl}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    expect(delivered.status).toBe(200);
  }

  const paid = await db
    .selectFrom('payment_intents')
    .select(['id', 'refunded_cents'])
    .where('status', '=', 'succeeded')
    .execute();
  const orders = await db.selectFrom('orders').select('payment_intent_id').execute();
  const ordered = new Set(orders.map((o) => o.payment_intent_id));
  const lost = paid.filter((p) => !ordered.has(p.id) && p.refunded_cents === 0).length;
  const duplicates = orders.length - ordered.size;
  const answers = Object.fromEntries([...statuses.entries()].sort((a, b) => a[0] - b[0]));
  const outageAnswers = during.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
  console.log(
    `[reliability] pg-restart postgres: shoppers=${journeys.length} paid=${paid.length} orders=${orders.length} lost=${lost} duplicates=${duplicates} via_webhook=${journeys.filter((j) => j.paid && !j.order).length} outage_ms=${Math.round(startedAt - stoppedAt)} recovered_after_start_ms=${Math.round(recoveredMs)} outage_answers=${JSON.stringify(outageAnswers)} answers=${JSON.stringify(answers)} violations=${lost + duplicates + (statuses.get(500) ?? 0)}`,
  );

  expect(probe.status).toBe(503);
  expect(leaverAttempts.map((a) => a.status)).toEqual(leavers.map(() => 503));
  expect(leavers.every((j) => j.paid && !j.order)).toBe(true);
  expect(during.every((s) => s !== 500)).toBe(true);
  expect(statuses.get(500) ?? 0).toBe(0);
  expect(recoveredMs).toBeGreaterThanOrEqual(0);
  expect(paid.length).toBe(journeys.length);
  expect(lost).toBe(0);
  expect(duplicates).toBe(0);
  expect(orders.length).toBe(journeys.length);
}, 180_000);
