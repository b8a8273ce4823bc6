/**
 * The Stripe provider's refunds (docs/decisions/198-console-orders.md), against a local stand-in for
 * Stripe's HTTP API: a part is sent as `amount`, a full refund without one, each with its key.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createStripeProvider } from '../../../src/server/payments/stripe.ts';

type Seen = { path: string; key: string | undefined; form: URLSearchParams };
const seen: Seen[] = [];
const server = createServer((request: IncomingMessage, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    const key = request.headers['idempotency-key'];
    seen.push({
      path: request.url ?? '',
      key: typeof key === 'string' ? key : undefined,
      form: new URLSearchParams(body),
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id: `re_${seen.length}`, object: 'refund', status: 'succeeded' }));
  });
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
});

test('a partial refund sends its amount and key; a full one no amount', async () => {
  const stripe = createStripeProvider('sk_test_local', { host: '127.0.0.1', port, protocol: 'http' });
  await stripe.refundIntent('pi_123', 'order-refund-o-1', 550);
  await stripe.refundIntent('pi_123', 'refund-pi_123');
  expect(seen.map((s) => [s.path, s.key, s.form.get('payment_intent'), s.form.get('amount')])).toEqual([
    ['/v1/refunds', 'order-refund-o-1', 'pi_123', '550'],
    ['/v1/refunds', 'refund-pi_123', 'pi_123', null],
  ]);
});
