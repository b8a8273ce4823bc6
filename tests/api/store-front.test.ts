import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { VIP_DOMAIN_TOKEN } from '../../src/server/db/demo-data.ts';

const RESTRICTED = {
  message: 'The store has restricted access. Please contact Admin.',
  store: { title: 'VIP Reserve' },
};
const NOT_FOUND = { message: 'Record not found' };
const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp({ RATE_LIMIT_VERIFY_PER_EMAIL: '3', RATE_LIMIT_VERIFY_PER_CLIENT: '1000' });
});
afterAll(async () => api?.close());

describe('store info', () => {
  test('health answers ok', async () => {
    const res = await api.call('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  test('a public store answers its info in the spec shape', async () => {
    const res = await api.call('GET', '/store_front/acme');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: expect.any(String),
        type: 'store',
        attributes: {
          title: 'Acme Supply Co.',
          slug: 'acme',
          faviconImage: '/images/demo/acme-favicon.svg',
          heroImage: '/images/demo/acme-hero.svg',
          allowedListsPresent: false,
          description: expect.any(String),
          lowStockThreshold: 5,
          customDomain: 'shop.acme.test',
          policies: ['shipping', 'returns', 'privacy', 'terms'],
          contactEmail: 'help@acme.test',
          collections: [
            { handle: 'apparel', title: 'Apparel' },
            { handle: 'footwear', title: 'Footwear' },
            { handle: 'accessories', title: 'Accessories' },
            { handle: 'home', title: 'Home' },
            { handle: 'bundles', title: 'Bundles' },
          ],
        },
      },
    });
  });

  test('a custom domain finds its store, case-insensitively', async () => {
    const res = await api.call('GET', '/store_front?custom_domain=SHOP.acme.test');
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.slug).toBe('acme');
  });

  test('a host written with a trailing dot (members.vip.test.) names the same store', async () => {
    expect((await api.call('GET', '/store_front?custom_domain=shop.acme.test.')).body.data.attributes.slug).toBe(
      'acme',
    );
    const vip = await api.call('GET', '/store_front?custom_domain=Members.VIP.test.', {
      headers: { 'allowed-domain-token': VIP_DOMAIN_TOKEN },
    });
    expect(vip.status).toBe(200);
    expect(vip.body.data.attributes.slug).toBe('vip');
    expect((await api.call('GET', '/store_front?custom_domain=members.vip.test.')).body).toEqual(RESTRICTED);
  });

  test('an unknown custom domain or slug is 404 Record not found', async () => {
    expect((await api.call('GET', '/store_front?custom_domain=nope.example.com')).body).toEqual(NOT_FOUND);
    const res = await api.call('GET', '/store_front/no-such-store');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
    expect((await api.call('GET', '/store_front/%3Cscript%3E')).status).toBe(404);
  });

  test('the custom domain lookup without a domain is 422 with an errors map', async () => {
    const res = await api.call('GET', '/store_front');
    expect(res.status).toBe(422);
    expect(res.body.errors.custom_domain).toBeDefined();
  });

  test('unknown API paths answer 404 JSON', async () => {
    const res = await api.call('GET', '/nothing/here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  test('CORS lets a cross-origin storefront read the recipient-token header', async () => {
    const res = await api.call('GET', '/store_front/acme/cart', { headers: { origin: 'https://elsewhere.test' } });
    expect(res.headers.get('access-control-expose-headers')).toContain('recipient-token');
    const preflight = await api.call('OPTIONS', '/store_front/acme/cart', {
      headers: {
        origin: 'https://elsewhere.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'recipient-token',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('recipient-token');
  });
});

describe('restricted store', () => {
  const vipCalls = [
    ['GET', '/store_front/vip'],
    ['GET', '/store_front/vip/products'],
    ['GET', '/store_front/vip/bundles'],
    ['GET', '/store_front/vip/cart'],
    ['POST', '/store_front/vip/cart/checkout'],
    ['POST', '/store_front/vip/gift_cards/apply'],
  ] as const;

  test('every call without a token answers 422 restricted', async () => {
    for (const [method, path] of vipCalls) {
      const res = await api.call(method, path);
      expect(res.status, `${method} ${path}`).toBe(422);
      expect(res.body).toEqual(RESTRICTED);
    }
  });

  test('a wrong or malformed token is refused the same way', async () => {
    const attempts: Record<string, string>[] = [
      { 'allowed-recipient-token': '8f14e45f-ea1c-4b4e-9d6a-000000000002' },
      { 'allowed-recipient-token': 'not-a-uuid' },
      { 'allowed-domain-token': 'wrong-token' },
      { browser_token: 'never-verified-browser-token' },
      { 'allowed-domain-token': 'x'.repeat(5000) },
    ];
    for (const headers of attempts) {
      const res = await api.call('GET', '/store_front/vip', { headers });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(RESTRICTED);
    }
  });

  test("a listed recipient's uuid or the domain token opens the store", async () => {
    const byRecipient = await api.call('GET', '/store_front/vip/products', {
      headers: { 'allowed-recipient-token': VIP_UUID },
    });
    expect(byRecipient.status).toBe(200);
    expect(byRecipient.body.data.map((p: any) => p.attributes.name)).toContain('VIP Reserve Chronograph');
    const byDomain = await api.call('GET', '/store_front/vip', {
      headers: { 'allowed-domain-token': 'vip-domain-token' },
    });
    expect(byDomain.status).toBe(200);
    expect(byDomain.body.data.attributes.allowedListsPresent).toBe(true);
  });

  test("a restricted store's token does not open it from another store's path, and its products never show in acme", async () => {
    const acme = await api.call('GET', '/store_front/acme/products?per_page=500');
    expect(acme.body.data.some((p: any) => p.attributes.name.startsWith('VIP Reserve'))).toBe(false);
    const search = await api.call('GET', '/store_front/acme/products?q=VIP');
    expect(search.body.data).toEqual([]);
  });

  test('allowed_users/verify answers identically whether or not the email is listed', async () => {
    const listed = await api.call('POST', '/store_front/vip/allowed_users/verify', {
      body: { email: 'Guest@Example.com' },
    });
    const unlisted = await api.call('POST', '/store_front/vip/allowed_users/verify', {
      body: { email: 'stranger@example.com' },
    });
    expect(listed.status).toBe(202);
    expect(unlisted.status).toBe(listed.status);
    expect(unlisted.text).toBe(listed.text);
    const message = await api.mail.next();
    expect(message.to).toBe('guest@example.com');
    expect(message.text).toContain(`http://shop.test/vip?uuid=${VIP_UUID}`);
    expect(api.mail.sent.some((m) => m.to === 'stranger@example.com')).toBe(false);
  });

  test('on a custom domain, verify finds the store by ?custom_domain= and links to that domain', async () => {
    await api.db.updateTable('stores').set({ custom_domain: 'members.vip.test' }).where('slug', '=', 'vip').execute();
    // The shopper's page does not know the slug on a custom domain; the placeholder segment is ignored.
    const answer = await api.call('POST', '/store_front/-/allowed_users/verify?custom_domain=members.vip.test', {
      body: { email: 'guest@example.com' },
    });
    expect(answer.status).toBe(202);
    const message = await api.mail.next();
    expect(message.text).toContain(`http://members.vip.test/?uuid=${VIP_UUID}`);
    // The same from a host written with a trailing dot: the link names the host without it.
    expect(
      (
        await api.call('POST', '/store_front/-/allowed_users/verify?custom_domain=members.vip.test.', {
          body: { email: 'guest@example.com' },
        })
      ).status,
    ).toBe(202);
    expect((await api.mail.next()).text).toContain(`http://members.vip.test/?uuid=${VIP_UUID}`);
    // Later tests start with a fresh per-email rate-limit window.
    api.clock.offsetMs += 60_000;
    const unknown = await api.call('POST', '/store_front/-/allowed_users/verify?custom_domain=nobody.example.test', {
      body: { email: 'guest@example.com' },
    });
    expect(unknown.status).toBe(404);
  });

  test('a browser token becomes a key once the emailed link has been used with it', async () => {
    const browserToken = 'browser-token-0123456789abcdef';
    await api.call('POST', '/store_front/vip/allowed_users/verify', {
      body: { email: 'guest@example.com', browser_token: browserToken },
    });
    expect((await api.call('GET', '/store_front/vip', { headers: { browser_token: browserToken } })).status).toBe(422);
    // Following the link: the storefront sends the uuid from the link together with its browser token.
    const opened = await api.call('GET', '/store_front/vip', {
      headers: { 'allowed-recipient-token': VIP_UUID, browser_token: browserToken },
    });
    expect(opened.status).toBe(200);
    expect((await api.call('GET', '/store_front/vip', { headers: { browser_token: browserToken } })).status).toBe(200);
  });

  test('verify validates the email with a 422 errors map and rejects malformed JSON with 400', async () => {
    const bad = await api.call('POST', '/store_front/vip/allowed_users/verify', { body: { email: 'not-an-email' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: 'Please enter a valid email address.',
      errors: { email: ['Please enter a valid email address.'] },
    });
    const malformed = await api.call('POST', '/store_front/vip/allowed_users/verify', {
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toEqual(expect.any(String));
  });

  test('verify is rate limited per email with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await api.call('POST', '/store_front/vip/allowed_users/verify', {
        body: { email: 'limited@example.com' },
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
