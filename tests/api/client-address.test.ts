/**
 * Hole 2: under `npm start` every API call reached the rate limits as one client, so one address's
 * wrong gift codes or sign-in attempts locked them for every shopper. Runs the real front
 * (startStorefront: the API runtime, the front listener, in-process calls of server-side renders)
 * with a stand-in for the Astro build, and calls it from two loopback addresses.
 */
import { randomBytes } from 'node:crypto';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FrontLocals } from '../../src/front/front-server.ts';
import type { Storefront } from '../../src/front/start-storefront.ts';
import { startTestStorefront, type TestStorefront } from './support/test-storefront.ts';
import { report, split } from './support/figures.ts';

let started: TestStorefront;
let storefront: Storefront;

/** The stand-in for Astro: a page whose render calls the API in process, as the real pages do. */
async function renderPage(
  req: IncomingMessage,
  res: ServerResponse,
  _next?: unknown,
  locals?: FrontLocals,
): Promise<void> {
  const email = new URL(req.url ?? '/', 'http://front').searchParams.get('email') ?? 'someone@example.com';
  if (!locals?.api) throw new Error('The front hands every render its API');
  const answer = await locals.api.fetch(`${locals.api.baseUrl}store_front/vip/allowed_users/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, browser_token: randomBytes(8).toString('hex') }),
  });
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(String(answer.status));
}

beforeAll(async () => {
  started = await startTestStorefront({
    name: 'client-address',
    renderPage,
    snapshotOnStart: false,
    // One window for the whole file: a window rolling over mid-test would rightly allow a second batch.
    env: { RATE_LIMIT_WINDOW_SECONDS: '86400' },
  });
  storefront = started.storefront;
}, 60_000);

afterAll(async () => started?.close());

type Answer = {
  status: number;
  token: string | undefined;
  text: string;
};

/** One call to the front from `localAddress` (any 127.x address reaches a loopback listener). */
function call(localAddress: string, method: string, pathname: string, body?: unknown, token?: string): Promise<Answer> {
  const url = new URL(pathname, storefront.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(token ? { 'recipient-token': token } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, token: res.headers['recipient-token'] as string | undefined, text }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const applyCode = (from: string, token?: string) =>
  call(from, 'POST', '/api/store_front/acme/gift_cards/apply', { gift_card: { code: 'WRONG-CODE-0000' } }, token);
const verify = (from: string, i: number) =>
  call(from, 'POST', '/api/store_front/vip/allowed_users/verify', {
    email: `someone${i}@example.com`,
    browser_token: randomBytes(8).toString('hex'),
  });
const statuses = (answers: Answer[]) => answers.map((a) => a.status);
const figures: Record<string, string> = {};

test("one address's wrong gift codes do not lock gift cards for another address, with or without a recipient-token", async () => {
  const limit = 30; // RATE_LIMIT_GIFT_CARD_PER_CLIENT and RATE_LIMIT_NEW_CARTS_PER_CLIENT as shipped
  const attacker: Answer[] = [];
  for (let i = 0; i < limit + 1; i++) attacker.push(await applyCode('127.0.0.2'));
  const shopperToken = (await call('127.0.0.3', 'GET', '/api/store_front/acme/cart')).token;
  const shopper = [await applyCode('127.0.0.3'), await applyCode('127.0.0.3', shopperToken)];
  figures.gift_attacker = split(statuses(attacker));
  figures.gift_other = split(statuses(shopper));
  expect(
    statuses(attacker)
      .slice(0, limit)
      .every((s) => s === 422),
  ).toBe(true);
  expect(attacker[limit]!.status).toBe(429);
  expect(statuses(shopper)).toEqual([422, 422]);
});

test("one address's sign-in attempts do not block sign-in for another address", async () => {
  const limit = 20; // RATE_LIMIT_VERIFY_PER_CLIENT as shipped
  const attacker: Answer[] = [];
  for (let i = 0; i < limit + 1; i++) attacker.push(await verify('127.0.0.4', i));
  const other = await verify('127.0.0.5', 1000);
  figures.verify_attacker = split(statuses(attacker));
  figures.verify_other = String(other.status);
  expect(statuses(attacker).filter((s) => s === 202)).toHaveLength(limit);
  expect(attacker[limit]!.status).toBe(429);
  expect(other.status).toBe(202);
});

test('API calls a server-side render makes in process count against the shopper whose page it is', async () => {
  const limit = 20;
  const attacker: string[] = [];
  for (let i = 0; i < limit + 1; i++)
    attacker.push((await call('127.0.0.6', 'GET', `/acme/verify-page?email=a${i}@example.com`)).text);
  const other = (await call('127.0.0.7', 'GET', '/acme/verify-page?email=b@example.com')).text;
  figures.render_attacker = split(attacker.map(Number));
  figures.render_other = other;
  const violations =
    Number(figures.verify_other !== '202') +
    Number(other !== '202') +
    Number(!figures.gift_other?.startsWith('{422:2}'));
  report('two-address-rate-limits', { ...figures, violations });
  expect(attacker.slice(0, limit).every((s) => s === '202')).toBe(true);
  expect(attacker[limit]).toBe('429');
  expect(other).toBe('202');
});
