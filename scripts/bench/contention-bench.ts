/**
 * Orders under contention (docs/decisions/214-scale-and-contention.md): many shoppers at once, each adding
 * one of the same three variants, checking out, paying with the test processor and finalizing, against
 * `npm start` on PostgreSQL, while stock runs out. Afterwards the database and the processor's own record
 * are read to prove zero oversell (sold ≤ stock, stock taken = units ordered) and zero lost payments
 * (every captured payment is one order's, every refused or failed order kept no money).
 */
import { sql } from 'kysely';
import type { Order } from '../../src/lib/contract/answers.ts';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { importCatalog } from '../../src/server/catalog/import.ts';
import { openDatabase } from '../../src/server/db/connect.ts';
import { TEST_CARDS } from '../../src/server/payments/test-processor.ts';
import { BENCH_ADDRESS, benchCard, newToken, send } from './shopper-fixtures.ts';
import type { BudgetResult } from './budgets.ts';
import { median, percentile, round } from './stats.ts';

const SLUG = 'contention';
const VARIANTS = 3;

export type ContentionOptions = {
  /** Shoppers in all. */
  shoppers: number;
  /** Shoppers in flight at once. */
  concurrency: number;
  /** Units of each variant: fewer in all than the shoppers who pay, so stock runs out during the run. */
  stockEach: number;
  /** Every n-th shopper pays with a declined card and then asks for the order anyway. */
  declinedEvery: number;
};

export const CONTENTION_DEFAULTS: ContentionOptions = {
  shoppers: 1000,
  concurrency: 200,
  stockEach: 250,
  declinedEvery: 10,
};

/** How a shopper's order ended. */
type Outcome = 'ordered' | 'out of stock before payment' | 'refunded after payment' | 'declined' | 'error';

export type ContentionFigures = ContentionOptions & {
  wallSeconds: number;
  ordersPerSecond: number;
  /** Orders per second as a fraction of the bare node:http ceiling measured in the same run (set by the bench). */
  ofCeiling?: number;
  ceilingRequestsPerSecond?: number;
  /** Units a second the hot-row reference took, as many at once, in the same run (set by the bench; ADR 218). */
  hotRowTakesPerSecond?: number;
  /** Orders per second as a fraction of those takes: what the budget judges. */
  ofHotRowTakes?: number;
  /** The whole order (add, address, checkout, pay, finalize) of shoppers whose order was placed. */
  orderP50Ms: number;
  orderP99Ms: number;
  outcomes: Record<Outcome, number>;
  /** The first few unexpected answers, for the report. */
  errorSamples: string[];
  variants: { sku: string; stock: number; left: number; sold: number }[];
  /** Units sold beyond a variant's stock, plus units whose stock taken differs from units ordered. */
  oversold: number;
  /** Captured payments without exactly one order, orders without a captured payment, refusals that kept money. */
  lostPayments: number;
  lostSamples: string[];
};

/** The contention store: three one-variant products with `stockEach` units each. */
function contentionCatalog(stockEach: number) {
  return {
    store: { slug: SLUG, title: 'Contention Store', tax_rate_bps: 825, shipping_flat: '5.99' },
    products: Array.from({ length: VARIANTS }, (_, i) => ({
      id: `hot-${i + 1}`,
      name: `Hot Item ${i + 1}`,
      variants: [{ sku: `HOT-${i + 1}`, name: 'Default', price: '19.99', stock: stockEach }],
    })),
  };
}

type Journey = { outcome: Outcome; ms: number; detail?: string };

const CONFLICT = 409;
const UNPROCESSABLE = 422;
const PAYMENT_REQUIRED = 402;
const ok = (answer: { status: number }) => answer.status >= 200 && answer.status < 300;

/** One shopper's whole order; every answer it gets is one a shopper's browser may get. */
async function journey(base: string, variantId: string, declined: boolean): Promise<Journey> {
  const started = performance.now();
  const token = newToken();
  const done = (outcome: Outcome, detail?: string): Journey => ({
    outcome,
    ms: performance.now() - started,
    ...(detail ? { detail } : {}),
  });
  const unexpected = (step: string, answer: { status: number; text: string }) =>
    done('error', `${step}: ${answer.status} ${answer.text.slice(0, 200)}`);
  const cart = `store_front/${SLUG}/cart`;
  const add = await send(
    base,
    'POST',
    `${cart}/cart_line_items`,
    { cart_line_item: { product_variant_id: variantId, quantity: 1 } },
    token,
  );
  if (add.status === UNPROCESSABLE) return done('out of stock before payment');
  if (!ok(add)) return unexpected('add', add);
  const address = await send(base, 'PUT', cart, { cart: BENCH_ADDRESS }, token);
  if (!ok(address)) return unexpected('address', address);
  const checkout = await send(base, 'POST', `${cart}/checkout`, {}, token);
  if (checkout.status === UNPROCESSABLE) return done('out of stock before payment');
  if (!ok(checkout)) return unexpected('checkout', checkout);
  const intent = (JSON.parse(checkout.text) as { paymentIntent: { id: string } | null }).paymentIntent;
  if (!intent) return unexpected('checkout without a payment', checkout);
  const card = benchCard(declined ? TEST_CARDS.declined : TEST_CARDS.success);
  const paid = await send(base, 'POST', `test_processor/payment_intents/${intent.id}/confirm`, { card });
  if (declined ? paid.status !== PAYMENT_REQUIRED : !ok(paid)) return unexpected('pay', paid);
  const finalize = await send(base, 'POST', `${cart}/finalize`, { payment_intent_id: intent.id }, token);
  if (declined) return finalize.status === PAYMENT_REQUIRED ? done('declined') : unexpected('finalize', finalize);
  if (finalize.status === CONFLICT) return done('refunded after payment');
  if (!ok(finalize)) return unexpected('finalize', finalize);
  const order = JSON.parse(finalize.text) as Order;
  return order.orderDetails.id ? done('ordered') : unexpected('finalize', finalize);
}

/** Runs `tasks` with at most `concurrency` in flight. */
async function inParallel<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return out;
}

type Audit = Pick<ContentionFigures, 'variants' | 'oversold' | 'lostPayments' | 'lostSamples'>;

/**
 * What the database and the test processor's record say after the run: stock and orders per variant,
 * and each payment intent of the store's carts against the orders that name it.
 */
async function audit(databaseUrl: string, stockEach: number): Promise<Audit> {
  const db = openDatabase({ databaseUrl, poolSize: 1 });
  try {
    const variants = await sql<{ sku: string; left: number; sold: number }>`
      select v.sku, v.stock as left,
        coalesce((select sum((item->>'quantity')::int) from orders o
          cross join jsonb_array_elements(o.details->'cartItems') item
          where o.store_id = v.store_id
            and item->'product_details'->>'product_variant_id' = v.id::text), 0)::int as sold
      from product_variants v join stores s on s.id = v.store_id
      where s.slug = ${SLUG} order by v.sku`.execute(db);
    const rows = variants.rows.map((v) => ({ sku: v.sku, stock: stockEach, left: v.left, sold: v.sold }));
    const oversold = rows.reduce(
      (n, v) => n + Math.max(0, v.sold - v.stock) + Math.abs(v.stock - v.left - v.sold) + Math.max(0, -v.left),
      0,
    );
    // Every intent of the store's carts beside the orders holding it: kept = captured minus refunded.
    const payments = await sql<{ id: string; status: string; kept: number; orders: number; total: number | null }>`
      select pi.id, pi.status, (case when pi.status = 'succeeded' then pi.amount_cents - pi.refunded_cents else 0 end)::int as kept,
        (select count(*) from orders o where o.payment_intent_id = pi.id)::int as orders,
        (select o.total_cents from orders o where o.payment_intent_id = pi.id) as total
      from payment_intents pi join carts c on c.id = pi.cart_id join stores s on s.id = c.store_id
      where s.slug = ${SLUG}`.execute(db);
    const lost = payments.rows.filter((p) =>
      p.orders === 0 ? p.kept !== 0 : p.orders !== 1 || p.status !== 'succeeded' || p.kept !== p.total,
    );
    const unpaidOrders = await sql<{ id: string }>`
      select o.id from orders o join stores s on s.id = o.store_id
      where s.slug = ${SLUG} and o.total_cents > 0 and o.payment_intent_id is null`.execute(db);
    return {
      variants: rows,
      oversold,
      lostPayments: lost.length + unpaidOrders.rows.length,
      lostSamples: [
        ...lost.slice(0, 5).map((p) => `${p.id} ${p.status}: kept ${p.kept} cents, ${p.orders} orders`),
        ...unpaidOrders.rows.slice(0, 5).map((o) => `order ${o.id} has no payment`),
      ],
    };
  } finally {
    await db.destroy();
  }
}

/** Makes the contention store in the storefront's database (already migrated by `npm start`). */
async function createStore(databaseUrl: string, stockEach: number): Promise<void> {
  const db = openDatabase({ databaseUrl, poolSize: 1 });
  try {
    await importCatalog(db, parseCatalog(contentionCatalog(stockEach)));
  } finally {
    await db.destroy();
  }
}

/** The run against a storefront at `base` whose database is `databaseUrl`; the audit comes after every answer. */
export async function measureContention(
  base: string,
  databaseUrl: string,
  options: ContentionOptions,
  log: (line: string) => void,
): Promise<ContentionFigures> {
  await createStore(databaseUrl, options.stockEach);
  const products = await send(base, 'GET', `store_front/${SLUG}/products?per_page=10`);
  const ids = await Promise.all(
    (JSON.parse(products.text) as { data: { id: string }[] }).data.map(async (p) => {
      const variants = await send(base, 'GET', `store_front/${SLUG}/products/${p.id}/product_variants`);
      return (JSON.parse(variants.text) as { data: { id: string }[] }).data[0]!.id;
    }),
  );
  if (ids.length !== VARIANTS) throw new Error(`The contention store lists ${ids.length} products, not ${VARIANTS}`);
  log(
    `  ${options.shoppers} shoppers, ${options.concurrency} at once, ${VARIANTS} variants × ${options.stockEach} units`,
  );
  const started = performance.now();
  const journeys = await inParallel(options.shoppers, options.concurrency, (i) =>
    journey(base, ids[i % VARIANTS]!, (i + 1) % options.declinedEvery === 0),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  const outcomes: Record<Outcome, number> = {
    ordered: 0,
    'out of stock before payment': 0,
    'refunded after payment': 0,
    declined: 0,
    error: 0,
  };
  for (const j of journeys) outcomes[j.outcome]++;
  const orderTimes = journeys
    .filter((j) => j.outcome === 'ordered')
    .map((j) => j.ms)
    .sort((a, b) => a - b);
  const figures: ContentionFigures = {
    ...options,
    wallSeconds: round(wallSeconds, 2),
    ordersPerSecond: round(outcomes.ordered / wallSeconds, 1),
    orderP50Ms: round(median(orderTimes), 1),
    orderP99Ms: round(percentile(orderTimes, 99), 1),
    outcomes,
    errorSamples: journeys.flatMap((j) => (j.outcome === 'error' && j.detail ? [j.detail] : [])).slice(0, 5),
    ...(await audit(databaseUrl, options.stockEach)),
  };
  log(
    `  ${outcomes.ordered} orders in ${figures.wallSeconds} s (${figures.ordersPerSecond}/s), order p50 ${figures.orderP50Ms} ms, p99 ${figures.orderP99Ms} ms; ${JSON.stringify(outcomes)}`,
  );
  log(`  oversold ${figures.oversold}, lost payments ${figures.lostPayments}`);
  for (const sample of [...figures.errorSamples, ...figures.lostSamples]) log(`    ${sample}`);
  return figures;
}

/**
 * Orders per second as a fraction of the units a second a bare `node:http` server takes from three hot
 * rows, one committed update per request, as many requests at once as there are shoppers, in the same
 * run: the bar of docs/decisions/218-orders-against-hot-row-takes.md, from the runs recorded there.
 */
export const ORDERS_OF_HOT_ROW_TAKES = 0.012;

/** The contention run's budgets: zero oversell and zero lost payments are hard, the rate a ratio. */
export function contentionBudgets(f: ContentionFigures, conditions: string): BudgetResult[] {
  const answered = f.outcomes.error === 0;
  return [
    {
      budget: 'orders under contention: zero oversell (sold ≤ stock, stock taken = units ordered)',
      measured: f.variants.map((v) => `${v.sku} ${v.sold} sold of ${v.stock}, ${v.left} left`).join('; '),
      pass: f.oversold === 0 && f.variants.length > 0,
    },
    {
      budget: 'orders under contention: zero lost payments (each capture one order, each refusal refunded)',
      measured: `${f.lostPayments} lost of ${f.shoppers} shoppers${f.lostSamples.length ? `: ${f.lostSamples.join('; ')}` : ''}`,
      pass: f.lostPayments === 0,
    },
    {
      budget: 'orders under contention: every shopper gets an answer the contract allows',
      measured: answered ? JSON.stringify(f.outcomes) : `${f.outcomes.error} unexpected: ${f.errorSamples.join('; ')}`,
      pass: answered,
    },
    {
      budget: `orders under contention ≥ ${ORDERS_OF_HOT_ROW_TAKES * 100}% of the units/s a bare node:http server takes from 3 hot rows, one committed update per request, ${f.concurrency} at once (PostgreSQL)`,
      measured: `${((f.ofHotRowTakes ?? 0) * 100).toFixed(2)}% (${f.ordersPerSecond} orders/s of ${f.hotRowTakesPerSecond ?? '?'} takes/s, order p99 ${f.orderP99Ms} ms; bare node:http ${f.ceilingRequestsPerSecond ?? '?'} req/s, ${((f.ofCeiling ?? 0) * 100).toFixed(2)}%; ${conditions})`,
      pass: (f.ofHotRowTakes ?? 0) >= ORDERS_OF_HOT_ROW_TAKES,
    },
  ];
}
