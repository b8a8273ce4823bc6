import autocannon from 'autocannon';
import type { Cart } from '../../src/lib/contract/answers.ts';
import { addLine, newToken, type StoreFixtures } from './shopper-fixtures.ts';
import type { PacedTarget } from './paced-load.ts';
import { treeCpuSeconds } from './processes.ts';
import { round } from './stats.ts';

export type LoadFigures = {
  name: string;
  target: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Requests per second as a fraction of the bare node:http answer in the same run. */
  ofCeiling?: number;
  /** Set for fixed-rate runs: the offered rate. */
  offeredRate?: number;
  /**
   * Server CPU (user + system, from /proc) per answered request, in microseconds: what a request costs
   * the server whatever share of the cores it got (docs/decisions/215-references-that-share-the-bottleneck.md).
   */
  cpuMicrosPerRequest?: number;
};

type Target = {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
};

/**
 * One autocannon run; `rate` fixes the overall request rate instead of going as fast as possible, and
 * `serverPid` adds the server's CPU per request over the run.
 */
export async function load(
  baseUrl: string,
  target: Target,
  seconds: number,
  options: { connections?: number; rate?: number; label: string; serverPid?: number | undefined },
): Promise<LoadFigures> {
  const cpuBefore = options.serverPid === undefined ? 0 : treeCpuSeconds(options.serverPid);
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections ?? 10,
    duration: seconds,
    ...(options.rate ? { overallRate: options.rate } : {}),
    requests: [
      {
        method: target.method,
        path: target.path,
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', ...target.headers },
        ...(target.body ? { body: target.body } : {}),
        ...(target.setupRequest ? { setupRequest: target.setupRequest } : {}),
      },
    ],
  });
  const cpuSeconds = options.serverPid === undefined ? undefined : treeCpuSeconds(options.serverPid) - cpuBefore;
  const answered = result['2xx'] + result.non2xx;
  return {
    name: target.name,
    target: options.label,
    requestsPerSecond: round(result['2xx'] / result.duration),
    p50Ms: round(result.latency.p50, 2),
    p99Ms: round(result.latency.p99, 2),
    non2xx: result.non2xx,
    errors: result.errors,
    ...(options.rate ? { offeredRate: options.rate } : {}),
    ...(cpuSeconds !== undefined && answered > 0
      ? { cpuMicrosPerRequest: round((cpuSeconds / answered) * 1e6, 1) }
      : {}),
  };
}

/** The four API calls budgeted in docs/decisions/060-benchmarks-and-budgets.md, against a store whose fixtures exist on `baseUrl`. */
export async function apiTargets(
  baseUrl: string,
  f: StoreFixtures,
): Promise<Record<'storeFront' | 'getCart' | 'addLine' | 'changeQuantity', Target>> {
  // PATCH needs a line per cart; a pool of carts keeps row locks from serialising the run on one cart.
  const pool: { token: string; lineId: string }[] = [];
  for (let i = 0; i < 100; i++) {
    const token = newToken();
    const cart: Cart = await addLine(baseUrl, f.slug, f.variantId, token);
    pool.push({ token, lineId: cart.cartItems[0]!.id });
  }
  let next = 0;
  const base = `/api/store_front/${f.slug}`;
  return {
    storeFront: { name: `GET store_front/${f.slug}`, method: 'GET', path: base },
    getCart: { name: 'GET …/cart', method: 'GET', path: `${base}/cart`, headers: { 'recipient-token': f.cartToken } },
    addLine: {
      name: 'POST …/cart_line_items',
      method: 'POST',
      path: `${base}/cart/cart_line_items`,
      body: JSON.stringify({ cart_line_item: { product_variant_id: f.variantId, quantity: 1 } }),
      // A new shopper per request: the first add, which also creates the cart, is the common case.
      setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'recipient-token': newToken() } }),
    },
    changeQuantity: {
      name: 'PATCH …/cart_line_items/{id}',
      method: 'PATCH',
      path: `${base}/cart/cart_line_items/${pool[0]!.lineId}`,
      setupRequest: (request) => {
        const n = next++;
        const entry = pool[n % pool.length]!;
        return {
          ...request,
          path: `${base}/cart/cart_line_items/${entry.lineId}`,
          headers: { ...request.headers, 'recipient-token': entry.token },
          body: JSON.stringify({ cart_line_item: { quantity: 1 + (Math.floor(n / pool.length) % 3) } }),
        };
      },
    },
  };
}

/** The two budgeted calls as evenly paced targets (scripts/bench/paced-load.ts). */
export function pacedTargets(f: StoreFixtures): Record<'getCart' | 'addLine', PacedTarget> {
  const base = `/api/store_front/${f.slug}`;
  return {
    getCart: { name: 'GET …/cart', method: 'GET', path: `${base}/cart`, headers: { 'recipient-token': f.cartToken } },
    // A new shopper per request, as in the autocannon run.
    addLine: {
      name: 'POST …/cart_line_items',
      method: 'POST',
      path: `${base}/cart/cart_line_items`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cart_line_item: { product_variant_id: f.variantId, quantity: 1 } }),
      newShopperEach: true,
    },
  };
}

export const bareTarget: Target = { name: 'bare node:http JSON', method: 'GET', path: '/' };
