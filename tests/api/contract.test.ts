/**
 * The contract (src/lib/contract/) is the API: every route the app serves is one of its operations and
 * every operation is served, /api/openapi.json is valid OpenAPI 3.1, /api/docs shows it, and the
 * answer check every API test runs through (support/contract-check.ts) refuses what it should.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OPERATIONS } from '../../src/lib/contract/operations.ts';
import { createApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { contractProblem } from './support/contract-check.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** `GET /store_front/{slug}` for each handler the app registered, as the contract writes paths. */
function servedRoutes(config = api.config): string[] {
  const app = createApp({ db: api.db, payments: api.payments, config });
  const routes = app.routes
    // `app.get('…/products/*', catalogCache)` registers middleware, not an operation.
    .filter((route) => HTTP_METHODS.has(route.method) && !route.path.endsWith('*'))
    .map((route) => {
      const path = route.path
        .replace(/^\/api/, '')
        .replace(/\/$/, '')
        .replace(/:([a-zA-Z_]+)/g, (_, name: string) => `{${name}}`);
      return `${route.method} ${path}`;
    });
  return [...new Set(routes)].sort();
}

/** Path parameter names differ between the routes (`:orderId`) and the contract (`{order_uuid}`); shapes must not. */
const shape = (route: string) => route.replace(/\{[a-zA-Z_]+\}/g, '{}');

describe('the contract and the routes', () => {
  test('every route the app serves is an operation of the contract, and every operation is served', () => {
    const contract = OPERATIONS.map((operation) => shape(`${operation.method.toUpperCase()} ${operation.path}`)).sort();
    expect(servedRoutes().map(shape)).toEqual(contract);
  });

  test('in production the development operations are neither served nor described', async () => {
    const production = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_SITE_URL: 'https://shop.test',
      CART_TOKEN_SECRET: 'x'.repeat(32),
    });
    const served = servedRoutes(production);
    expect(served.some((route) => route.includes('/test_processor') || route.includes('/dev/'))).toBe(false);
    const app = createApp({ db: api.db, payments: api.payments, config: production });
    const document = (await (await app.request('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(
      Object.keys(document.paths).filter((path) => path.startsWith('/test_processor') || path.startsWith('/dev/')),
    ).toEqual([]);
    expect(Object.keys(document.paths)).toContain('/store_front/{slug}/cart/finalize');
  });
});

describe('/api/openapi.json and /api/docs', () => {
  test('the description validates as OpenAPI 3.1 and names every operation', async () => {
    const answer = await api.call<{ openapi: string; paths: Record<string, Record<string, { operationId: string }>> }>(
      'GET',
      '/openapi.json',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(answer.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const described = Object.values(answer.body.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    expect(described.sort()).toEqual(OPERATIONS.map((operation) => operation.operationId).sort());
  });

  test('the reference page lists every operation and schema, with the error answers', async () => {
    const answer = await api.call('GET', '/docs');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
    for (const operation of OPERATIONS) {
      expect(answer.text).toContain(`id="${operation.operationId}"`);
      expect(answer.text).toContain(`<code>${operation.path}</code>`);
    }
    for (const schema of ['Cart', 'Order', 'Error', 'AddLinePayload'])
      expect(answer.text).toContain(`id="schema-${schema}"`);
    expect(answer.text).toContain('<strong>422</strong> Invalid values');
    expect(answer.text).not.toContain('<script');
  });
});

describe('the answer check of the API tests', () => {
  const CART_PATH = '/store_front/acme/cart';

  test('a real answer passes', async () => {
    const answer = await fetch(`${api.baseUrl}${CART_PATH}`);
    expect(contractProblem('GET', CART_PATH, answer.status, await answer.text())).toBeNull();
  });

  test('a status the operation does not document fails, 500 included', () => {
    expect(contractProblem('GET', CART_PATH, 500, '{"message":"boom"}')).toMatch(/does not document/);
    expect(contractProblem('POST', '/store_front/acme/cart/cart_line_items', 200, '{}')).toMatch(/does not document/);
  });

  test('a missing field, a field of the wrong type and an undeclared field fail', async () => {
    const cart = (await (await fetch(`${api.baseUrl}${CART_PATH}`)).json()) as Record<string, unknown>;
    const { total: _total, ...withoutTotal } = cart;
    expect(contractProblem('GET', CART_PATH, 200, JSON.stringify(withoutTotal))).toMatch(/does not describe/);
    expect(contractProblem('GET', CART_PATH, 200, JSON.stringify({ ...cart, total: 12.5 }))).toMatch(
      /does not describe/,
    );
    expect(contractProblem('GET', CART_PATH, 200, JSON.stringify({ ...cart, secret: 'x' }))).toMatch(
      /does not describe/,
    );
  });

  test('error answers must be the Error body, and unknown paths may only be 404', () => {
    expect(contractProblem('GET', CART_PATH, 422, '{"message":"x","errors":{"zip":["Zip is required."]}}')).toBeNull();
    expect(contractProblem('GET', CART_PATH, 422, '{"error":"x"}')).toMatch(/does not describe/);
    expect(contractProblem('GET', '/nowhere', 404, '{"message":"Record not found"}')).toBeNull();
    expect(contractProblem('GET', '/nowhere', 200, '{}')).toMatch(/does not document/);
  });
});
