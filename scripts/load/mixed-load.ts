/**
 * The storefront's API under a steady mix of shopper calls (issue 7): store, product list, product,
 * add a line, change its quantity, read the cart, remove the line — each autocannon connection is one
 * shopper with its own cart token, cycling through that journey at a fixed overall rate.
 *
 * `runMixedLoad({ baseUrl, durationSeconds, rate })` answers the figures (npm run bench calls it);
 * `node scripts/load/mixed-load.ts --url http://127.0.0.1:4321 --seconds 60 --rate 200` prints them.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

export interface MixedLoadOptions {
  /** The site (`http://host:port`, API under /api) or the API base itself (`…/api`). */
  baseUrl: string;
  durationSeconds: number;
  /** Requests per second across all connections. */
  rate: number;
  connections?: number;
  store?: string;
}

export interface MixedLoadFigures {
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
}

interface Shopper {
  token?: string;
  lineId?: string;
  step?: number;
}

async function getJson(url: string): Promise<any> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}; is the API running and seeded?`);
  return response.json();
}

/** Products and in-stock variants to spread the load over (read once, before the clock starts). */
async function catalog(api: string, store: string) {
  const products = (await getJson(`${api}/store_front/${store}/products?per_page=24`)).data as { id: string }[];
  const variants: string[] = [];
  for (const product of products.slice(0, 12)) {
    const list = (await getJson(`${api}/store_front/${store}/products/${product.id}/product_variants`)).data as { id: string; attributes: { stock: number } }[];
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
  const json = (shopper: Shopper) => ({ 'content-type': 'application/json', 'recipient-token': (shopper.token ??= randomBytes(24).toString('base64url')) });

  const requests: autocannon.Request[] = [
    { method: 'GET', path: S },
    { method: 'GET', path: `${S}/products` },
    { method: 'GET', setupRequest: (req) => ({ ...req, path: `${S}/products/${pick(productIds)}` }) },
    {
      method: 'POST',
      setupRequest: (req, context) => ({
        ...req,
        path: `${S}/cart/cart_line_items`,
        headers: json(context as Shopper),
        body: JSON.stringify({ cart_line_item: { product_variant_id: pick(variantIds), quantity: 1 } }),
      }),
      onResponse: (status, body, context) => {
        if (status === 201) (context as Shopper).lineId = (JSON.parse(body).cartItems as { id: string }[]).at(-1)?.id;
      },
    },
    {
      method: 'PATCH',
      setupRequest: (req, context) => ({
        ...req,
        path: `${S}/cart/cart_line_items/${(context as Shopper).lineId}`,
        headers: json(context as Shopper),
        body: JSON.stringify({ cart_line_item: { quantity: 2 } }),
      }),
    },
    { method: 'GET', setupRequest: (req, context) => ({ ...req, path: `${S}/cart`, headers: json(context as Shopper) }) },
    { method: 'DELETE', setupRequest: (req, context) => ({ ...req, path: `${S}/cart/cart_line_items/${(context as Shopper).lineId}`, headers: json(context as Shopper) }) },
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
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = (count as { count: number }).count;
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
  const { values } = parseArgs({ options: { url: { type: 'string', default: 'http://127.0.0.1:4321' }, seconds: { type: 'string', default: '60' }, rate: { type: 'string', default: '200' } } });
  const figures = await runMixedLoad({ baseUrl: values.url, durationSeconds: Number(values.seconds), rate: Number(values.rate) });
  console.log(JSON.stringify(figures, null, 2));
  process.exit(figures.errors + figures.non2xx + figures.timeouts === 0 ? 0 : 1);
}
