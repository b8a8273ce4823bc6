/**
 * Reliability (docs/reliability.md), fuzzing: fast-check generates bodies, path params, query strings and headers for every
 * API route. No answer is a 500, and a refused call (4xx/5xx) leaves the database as it was: a
 * digest of every table's content is the same before and after it.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VIP_DOMAIN_TOKEN, VIP_RECIPIENT } from '../../src/server/db/demo-data.ts';
import { report, split } from './support/figures.ts';
import { giftCard, readyCart, S } from './support/shopper.ts';
import { newToken, startTestApp, variantId, type TestApp } from './support/test-app.ts';

/** Cases per route; 22 routes × 60 ≈ 1,300 per database run (CI runs PGlite and PostgreSQL). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

// Rate-limit counters change on refused calls by design; the test processor records a decline's
// message on the intent (as Stripe does); the outbox worker records a mail's delivery whenever it
// gets to it (an earlier accepted call's mail): all are left out of the digest.
const DIGEST_EXCLUDED = new Set(['rate_limits', 'kysely_migration', 'kysely_migration_lock']);
const DIGEST_COLUMNS: Record<string, string> = {
  payment_intents: '(x.id, x.cart_id, x.amount_cents, x.status, x.refunded_cents)',
  mail_outbox: '(x.id, x.kind, x.dedupe_key, x.message_id, x.to_address, x.subject, x.text_body, x.html_body)',
};

let api: TestApp;
let tables: string[] = [];
const statuses: number[] = [];
/** Requests carrying a NUL (body, path or query) and other control characters, and their 500s. */
const nul = { requests: 0, errors500: 0 };
const control = { requests: 0, errors500: 0 };
const dirty: string[] = [];
const errors500: string[] = [];
const ids: Record<'variant' | 'product' | 'bundle' | 'line' | 'card' | 'order' | 'intent', string> = {
  variant: '1',
  product: '1',
  bundle: '1',
  line: crypto.randomUUID(),
  card: crypto.randomUUID(),
  order: crypto.randomUUID(),
  intent: 'pi_test_00000000000000000000000000000000',
};
let shopper = '';

beforeAll(async () => {
  api = await startTestApp({
    RATE_LIMIT_GIFT_CARD_PER_CLIENT: '1000000',
    RATE_LIMIT_GIFT_CARD_PER_CART: '1000000',
    RATE_LIMIT_VERIFY_PER_CLIENT: '1000000',
    RATE_LIMIT_VERIFY_PER_EMAIL: '1000000',
  });
  const listed = await sql<{
    name: string;
  }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(
    api.db,
  );
  tables = listed.rows.map((r) => r.name).filter((t) => !DIGEST_EXCLUDED.has(t));
  // Real records, so generated requests sometimes name things that exist.
  ids.variant = await variantId(api.db, 'TEE-M-RED');
  ids.product = String(
    (
      await api.db
        .selectFrom('products')
        .select('id')
        .where('external_id', '=', 'classic-tee')
        .executeTakeFirstOrThrow()
    ).id,
  );
  ids.bundle = String((await api.db.selectFrom('bundles').select('id').limit(1).executeTakeFirstOrThrow()).id);
  // A card that covers part of the total, so the cart also has a payment intent.
  const card = await giftCard(api, 1000, 'FUZZ');
  ids.card = card.id;
  shopper = await readyCart(api, ids.variant, 1, card.code);
  ids.line = (await api.call('GET', `${S}/cart`, { token: shopper })).body.cartItems[0].id;
  ids.intent = (await api.call('POST', `${S}/cart/checkout`, { token: shopper })).body.paymentIntent.id;
});
afterAll(async () => {
  report('fuzz', {
    routes: ROUTES.length,
    cases: statuses.length,
    answers: split(statuses),
    errors500: errors500.length,
    dirty_failures: dirty.length,
    violations: errors500.length + dirty.length,
  });
  report('fuzz-nul', {
    requests: nul.requests,
    errors500: nul.errors500,
    control_requests: control.requests,
    control_errors500: control.errors500,
    violations: nul.errors500 + control.errors500,
  });
  await api?.close();
});

async function digest(): Promise<string> {
  const parts = tables.map(
    (t) =>
      sql`select ${t}::text as t, md5(coalesce(string_agg(${sql.raw(DIGEST_COLUMNS[t] ?? 'x')}::text, '|' order by ${sql.raw(DIGEST_COLUMNS[t] ?? 'x')}::text), '')) as h from ${sql.table(t)} x`,
  );
  const result = await sql<{ t: string; h: string }>`${sql.join(parts, sql` union all `)}`.execute(api.db);
  return result.rows.map((r) => `${r.t}:${r.h}`).join(',');
}

// ---- generators -------------------------------------------------------------------------------

const printableUnit = fc.constantFrom(...'abcXYZ019-_.~ !"#$%&\'()*+,/:;<=>?@[\\]^`{|}é\u00a0'.split(''));
/** Header values: what HTTP lets a client send (fetch refuses control characters in headers, and Node answers 400 to them). */
const printable = fc.string({ unit: printableUnit, maxLength: 40 });
/** NUL, other C0 and C1 controls, DEL, line separators, lone surrogates and noncharacters. */
const CONTROL = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u2028',
  '\ud800',
  '\udfff',
  '\ufffe',
  '\uffff',
];
/** Text for bodies, path segments and query strings: mostly printable, with control characters mixed in. */
const text = fc.string({
  unit: fc.oneof({ weight: 12, arbitrary: printableUnit }, { weight: 1, arbitrary: fc.constantFrom(...CONTROL) }),
  maxLength: 40,
});
const segment = fc.oneof(
  text,
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1.5',
    '99999999999',
    '%00',
    '..',
    'null',
    'undefined',
    '\u0000',
    'acme\u0000',
    crypto.randomUUID(),
  ),
  fc.uuid().map(String),
  fc.integer().map(String),
);
const slug = fc.oneof({ weight: 4, arbitrary: fc.constant('acme') }, fc.constant('vip'), fc.constant('ACME'), segment);
const json = fc.oneof(
  fc.jsonValue(),
  fc.anything({ maxDepth: 2 }).map((v) => {
    try {
      return JSON.parse(JSON.stringify(v) ?? 'null');
    } catch {
      return null;
    }
  }),
);
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 0.5, 1, 2, 99, 100, 1e9, Number.MAX_SAFE_INTEGER),
  fc.string(),
  fc.constant(null),
);
const lineBody = fc.record(
  {
    cart_line_item: fc.record(
      {
        product_variant_id: fc.oneof(fc.constant(ids.variant), number),
        bundle_id: fc.oneof(fc.constant(undefined), number),
        quantity: number,
        price: number,
      },
      { requiredKeys: [] },
    ),
    total: number,
  },
  { requiredKeys: [] },
);
const addressBody = fc.record(
  {
    cart: fc.dictionary(
      fc.constantFrom(
        'first_name',
        'last_name',
        'email',
        'address_line1',
        'city',
        'country',
        'state',
        'zip',
        'phone',
        'x',
        'x\u0000',
      ),
      fc.oneof(text, number),
    ),
  },
  { requiredKeys: [] },
);
const codeBody = fc.record(
  {
    gift_card: fc.record(
      { code: fc.oneof(text, number, fc.constantFrom('ACME-25', 'ACME-ZERO', 'acme-500', 'ACME-25\u0000')) },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);
const body = (shaped: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 3, arbitrary: shaped.map((v) => ({ json: v })) },
    { weight: 2, arbitrary: json.map((v) => ({ json: v })) },
    { weight: 1, arbitrary: text.map((raw) => ({ raw })) },
    { weight: 1, arbitrary: fc.constant({ raw: '' }) },
    { weight: 1, arbitrary: fc.constant({ raw: '{"a":' }) },
  );
const token = fc.oneof(fc.constant(undefined), fc.constant('SHOPPER'), fc.constant(newToken()), printable);
const headers = fc.record(
  {
    'recipient-token': token,
    'allowed-recipient-token': fc.oneof(printable, fc.constant(VIP_RECIPIENT.uuid), fc.uuid().map(String)),
    'allowed-domain-token': fc.oneof(printable, fc.constant(VIP_DOMAIN_TOKEN)),
    browser_token: printable,
    // Mostly JSON, so generated bodies reach the handlers; other types must get 415 (or be ignored when empty).
    'content-type': fc.oneof(
      { weight: 4, arbitrary: fc.constant('application/json') },
      fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''),
    ),
    'x-forwarded-for': printable,
    'stripe-signature': printable,
  },
  { requiredKeys: ['content-type'] },
);
const query = fc.dictionary(
  fc.constantFrom('page', 'per_page', 'q', 'sort', 'order', 'featured', 'custom_domain', 'x', 'q\u0000'),
  fc.oneof({ weight: 8, arbitrary: text }, fc.constantFrom('shop.acme.test\u0000', 'members.vip.test.', 'tee\u0000')),
  { maxKeys: 3 },
);

/** encodeURIComponent, with a lone surrogate (which it refuses) sent as the bytes CESU-8 would give it: no UTF-8 at all. */
function encodePart(value: string): string {
  let out = '';
  for (const ch of value) out += ch.isWellFormed() ? encodeURIComponent(ch) : '%ED%A0%80';
  return out;
}

/** Every string and object key in a generated value. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...textsOf(v)]);
  return [];
}

type Req = {
  method: string;
  path: string;
  body?: { json?: unknown; raw?: string } | undefined;
  headers: Record<string, string | undefined>;
  query: Record<string, string>;
};
type Route = { name: string; arb: fc.Arbitrary<Req> };

const route = (
  name: string,
  method: string,
  path: (p: string[]) => string,
  params: fc.Arbitrary<string>[],
  bodyArb?: fc.Arbitrary<unknown>,
): Route => ({
  name,
  arb: fc
    .record({ params: fc.tuple(...params), body: bodyArb ? body(bodyArb) : fc.constant(undefined), headers, query })
    .map(({ params: p, body: b, headers: h, query: q }) => ({
      method,
      path: path(p.map(encodePart)),
      body: b,
      headers: h,
      query: q,
    })),
});

const id = (real: () => string) => fc.oneof({ weight: 2, arbitrary: fc.constant('REAL').map(() => real()) }, segment);
const ROUTES: Route[] = [
  route('health', 'GET', () => '/health', []),
  route('store by domain', 'GET', () => '/store_front', []),
  route('store', 'GET', ([s]) => `/store_front/${s}`, [slug]),
  route(
    'verify',
    'POST',
    ([s]) => `/store_front/${s}/allowed_users/verify`,
    [slug],
    fc.record(
      { email: fc.oneof(text, fc.constant(VIP_RECIPIENT.email), number), browser_token: fc.oneof(text, number) },
      { requiredKeys: [] },
    ),
  ),
  route('products', 'GET', ([s]) => `/store_front/${s}/products`, [slug]),
  route('product', 'GET', ([s, i]) => `/store_front/${s}/products/${i}`, [slug, id(() => ids.product)]),
  route('variants', 'GET', ([s, i]) => `/store_front/${s}/products/${i}/product_variants`, [
    slug,
    id(() => ids.product),
  ]),
  route('bundles', 'GET', ([s]) => `/store_front/${s}/bundles`, [slug]),
  route('bundle', 'GET', ([s, i]) => `/store_front/${s}/bundles/${i}`, [slug, id(() => ids.bundle)]),
  route('bundle items', 'GET', ([s, i]) => `/store_front/${s}/bundles/${i}/bundle_items`, [slug, id(() => ids.bundle)]),
  route('cart', 'GET', ([s]) => `/store_front/${s}/cart`, [slug]),
  route('address', 'PUT', ([s]) => `/store_front/${s}/cart`, [slug], addressBody),
  route('add line', 'POST', ([s]) => `/store_front/${s}/cart/cart_line_items`, [slug], lineBody),
  route(
    'change line',
    'PATCH',
    ([s, i]) => `/store_front/${s}/cart/cart_line_items/${i}`,
    [slug, id(() => ids.line)],
    lineBody,
  ),
  route('remove line', 'DELETE', ([s, i]) => `/store_front/${s}/cart/cart_line_items/${i}`, [slug, id(() => ids.line)]),
  route('apply gift card', 'POST', ([s]) => `/store_front/${s}/gift_cards/apply`, [slug], codeBody),
  route(
    'remove gift card',
    'POST',
    ([s, i]) => `/store_front/${s}/gift_cards/${i}/remove`,
    [slug, id(() => ids.card)],
    codeBody,
  ),
  route(
    'checkout',
    'POST',
    ([s]) => `/store_front/${s}/cart/checkout`,
    [slug],
    fc.record({ amount: number, total: number, currency: text }, { requiredKeys: [] }),
  ),
  route(
    'finalize',
    'POST',
    ([s]) => `/store_front/${s}/cart/finalize`,
    [slug],
    fc.record(
      {
        payment_intent_id: fc.oneof(
          fc.constant('REAL').map(() => ids.intent),
          text,
          number,
        ),
      },
      { requiredKeys: [] },
    ),
  ),
  route('order', 'GET', ([i]) => `/cart/${i}`, [id(() => ids.order)]),
  route(
    'webhook',
    'POST',
    () => '/webhooks/stripe',
    [],
    fc.record(
      {
        id: text,
        type: fc.constantFrom('payment_intent.succeeded', 'x'),
        data: fc.record({ object: fc.record({ id: text, metadata: fc.record({ cart_id: text }) }) }),
      },
      { requiredKeys: [] },
    ),
  ),
  route(
    'confirm',
    'POST',
    ([i]) => `/test_processor/payment_intents/${i}/confirm`,
    [id(() => ids.intent)],
    fc.record(
      {
        card: fc.record(
          {
            number: fc.oneof(text, fc.constantFrom('4000000000000002', '4242424242424242')),
            exp_month: number,
            exp_year: number,
            cvc: fc.oneof(text, number),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
  ),
];

async function send(req: Req) {
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) h[k] = v === 'SHOPPER' ? shopper : v;
  const qs = new URLSearchParams(req.query).toString();
  let b: string | undefined;
  if (req.body && req.method !== 'GET') b = 'raw' in req.body ? req.body.raw : JSON.stringify(req.body.json);
  const response = await fetch(`${api.baseUrl}${req.path}${qs ? `?${qs}` : ''}`, {
    method: req.method,
    headers: h,
    body: b ?? null,
  });
  return { status: response.status, text: await response.text() };
}

describe('fuzzing every API route', () => {
  for (const r of ROUTES) {
    test(`${r.name}: generated requests never get a 500 and a refused one changes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(r.arb, async (req) => {
          const before = await digest();
          const answer = await send(req);
          statuses.push(answer.status);
          const is500 = answer.status >= 500 && answer.status !== 502 && answer.status !== 503;
          if (is500) errors500.push(`${req.method} ${req.path} → ${answer.status} ${answer.text}`);
          const texts = textsOf([req.body, req.query]);
          const hasNul = /%00/i.test(req.path) || texts.some((t) => t.includes('\u0000'));
          const hasControl =
            /%(0[1-9a-f]|1[0-9a-f]|7f|ED%A0)/i.test(req.path) ||
            texts.some((t) => /[\u0001-\u001f\u007f\u0085\u2028\ufffe\uffff]/.test(t) || !t.isWellFormed());
          for (const [tally, carries] of [
            [nul, hasNul],
            [control, hasControl],
          ] as const) {
            if (!carries) continue;
            tally.requests++;
            if (is500) tally.errors500++;
          }
          expect(answer.status, `${req.method} ${req.path} ${JSON.stringify(req)} → ${answer.text}`).toBeLessThan(500);
          if (answer.status >= 400) {
            const after = await digest();
            if (after !== before) dirty.push(`${req.method} ${req.path} → ${answer.status}`);
            expect(after, `a refused ${req.method} ${req.path} (${answer.status}) changed the database`).toBe(before);
          }
        }),
        { numRuns: RUNS },
      );
    }, 120_000);
  }
});
