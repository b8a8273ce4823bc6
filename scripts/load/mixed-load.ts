/**
 * The storefront's API under a steady mix of shopper calls (docs/reliability.md): store, product list, product,
 * add a line, change its quantity, read the cart, remove the line — each autocannon connection is one
 * shopper with its own cart token, cycling through that journey at a fixed overall rate.
 *
 * `runMixedLoad({ baseUrl, durationSeconds, rate })` answers the figures (npm run bench calls it);
 * `CART_TOKEN_SECRET=… node scripts/load/mixed-load.ts --url http://127.0.0.1:4321 --seconds 60 --rate 200` prints them
 * (the server's secret: each shopper cycle carries a new cart token the API recognises).
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cartTokenSigner } from '../../src/server/carts/cart-tokens.ts';

export type MixedLoadOptions = {
  /** The site (`http://host:port`, API under /api) or the API base itself (`…/api`). */
  baseUrl: string;
  durationSeconds: number;
  /** Requests per second across all connections. */
  rate: number;
  connections?: number;
  store?: string;
  /** The server's CART_TOKEN_SECRET: each shopper cycle is a new shopper with a token the API recognises. */
  cartTokenSecret: string;
};

export type MixedLoadFigures = {
  durationSeconds: number;
  rate: number;
  connections: number;
  requests: number;
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  mix: string;
};

type Shopper = {
  token?: string;
  lineId?: string;
  step?: number;
};

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}; is the API running and seeded?`);
  return (await response.json()) as T;
}

/** Products and in-stock variants to spread the load over (read once, before the clock starts). */
async function catalog(api: string, store: string) {
  const products = (await getJson<{ data: { id: string }[] }>(`${api}/store_front/${store}/products?per_page=24`)).data;
  const variants: string[] = [];
  for (const product of products.slice(0, 12)) {
    const list = (
      await getJson<{ data: { id: string; attributes: { stock: number } }[] }>(
        `${api}/store_front/${store}/products/${product.id}/product_variants`,
      )
    ).data;
    for (const v of list) if (v.attributes.stock >= 5) variants.push(v.id);
  }
  if (variants.length === 0) throw new Error(`store ${store} has no variant with 5 or more in stock to load-test with`);
  return { productIds: products.map((p) => p.id), variantIds: variants };
}

const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;

export async function runMixedLoad(options: MixedLoadOptions): Promise<MixedLoadFigures> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const api = base.endsWith('/api') ? base : `${base}/api`;
  const store = options.store ?? 'acme';
  const connections = options.connections ?? 10;
  const { productIds, variantIds } = await catalog(api, store);
  const apiPath = new URL(api).pathname;
  const S = `${apiPath}/store_front/${store}`;
  const tokens = cartTokenSigner(options.cartTokenSecret);
  const json = (shopper: Shopper) => ({
    'content-type': 'application/json',
    'recipient-token': (shopper.token ??= tokens.issue()),
  });

  const requests: autocannon.Request[] = [
    { method: 'GET', path: S },
    { method: 'GET', path: `${S}/products` },
    { method: 'GET', setupRequest: (req) => ({ ...req, path: `${S}/products/${pick(productIds)}` }) },
    {
      method: 'POST',
      setupRequest: (req, context) => ({
        ...req,
        path: `${S}/cart/cart_line_items`,
        headers: json(context),
        body: JSON.stringify({ cart_line_item: { product_variant_id: pick(variantIds), quantity: 1 } }),
      }),
      onResponse: (status, body, context) => {
        if (status === 201)
          (context as Shopper).lineId = (JSON.parse(body) as { cartItems: { id: string }[] }).cartItems.at(-1)?.id;
      },
    },
    {
      method: 'PATCH',
      setupRequest: (req, context) => ({
        ...req,
        path: `${S}/cart/cart_line_items/${(context as Shopper).lineId}`,
        headers: json(context),
        body: JSON.stringify({ cart_line_item: { quantity: 2 } }),
      }),
    },
    { method: 'GET', setupRequest: (req, context) => ({ ...req, path: `${S}/cart`, headers: json(context) }) },
    {
      method: 'DELETE',
      setupRequest: (req, context) => ({
        ...req,
        path: `${S}/cart/cart_line_items/${(context as Shopper).lineId}`,
        headers: json(context),
      }),
    },
  ];

  const result = await autocannon({
    url: new URL(api).origin,
    connections,
    duration: options.durationSeconds,
    overallRate: options.rate,
    timeout: 10,
    requests,
    initialContext: {},
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = (count as { count: number }).count;
  return {
    durationSeconds: options.durationSeconds,
    rate: options.rate,
    connections,
    requests: result.requests.total,
    throughput: Math.round((result.requests.total / result.duration) * 10) / 10,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    mix: 'store, products, product, add line, change quantity, cart, remove line (1 each per shopper cycle)',
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:4321' },
      seconds: { type: 'string', default: '60' },
      rate: { type: 'string', default: '200' },
    },
  });
  const cartTokenSecret = process.env.CART_TOKEN_SECRET;
  if (!cartTokenSecret) {
    console.error(
      "Set CART_TOKEN_SECRET to the server's: every shopper of the load needs a cart token the API recognises.",
    );
    process.exit(2);
  }
  const figures = await runMixedLoad({
    baseUrl: values.url,
    durationSeconds: Number(values.seconds),
    rate: Number(values.rate),
    cartTokenSecret,
  });
  console.log(JSON.stringify(figures, null, 2));
  process.exit(figures.errors + figures.non2xx + figures.timeouts === 0 ? 0 : 1);
}
