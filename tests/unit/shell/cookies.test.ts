import { parseSetCookie } from 'cookie';
import { describe, expect, test } from 'vitest';
import {
  COOKIE,
  cookiePath,
  cookieToRemove,
  cookieToSet,
  headerCookieJar,
  parseCookies,
  serializeCookie,
} from '../../../src/lib/cookies.ts';

const bySlug = { slug: 'vip', customDomain: null };
const byDomain = { slug: 'vip', customDomain: 'shop.vip.test' };

// Spec §6 and §9 names: what the browser stores and what the server reads back must be these.
test.each([
  [COOKIE.subdomain, 'subdomain'],
  [COOKIE.storeSlug, 'store-slug'],
  [COOKIE.allowedDomainToken, 'allowed-domain-token'],
  [COOKIE.allowedRecipientToken, 'allowed-recipient-token'],
  [COOKIE.recipientToken, 'recipient-token'],
  [COOKIE.browserToken, 'browser_token'],
])('the %s cookie is written and read back under the name %j', (name, specName) => {
  const written = parseSetCookie(serializeCookie(cookieToSet(name, 'v1', bySlug), { secure: false }));
  expect(written.name).toBe(specName);
  expect(headerCookieJar(`other=x; ${specName}=v2`).get(name)).toBe('v2');
});

test('cookies last seven days (604800 s)', () => {
  expect(parseSetCookie(serializeCookie(cookieToSet(COOKIE.storeSlug, 'vip', bySlug), { secure: false })).maxAge).toBe(
    604800,
  );
});

describe('cookie paths (spec §9)', () => {
  test('subdomain, recipient-token and browser_token live at /', () => {
    for (const name of [COOKIE.subdomain, COOKIE.recipientToken, COOKIE.browserToken]) {
      expect(cookiePath(name, bySlug)).toBe('/');
      expect(cookiePath(name, byDomain)).toBe('/');
    }
  });

  test('store-slug lives at /{slug}, or / on a custom domain or without a slug', () => {
    expect(cookiePath(COOKIE.storeSlug, bySlug)).toBe('/vip');
    expect(cookiePath(COOKIE.storeSlug, byDomain)).toBe('/');
    expect(cookiePath(COOKIE.storeSlug, { slug: null, customDomain: null })).toBe('/');
  });

  test('the access tokens live at / on a custom domain, else at /{slug}', () => {
    for (const name of [COOKIE.allowedDomainToken, COOKIE.allowedRecipientToken]) {
      expect(cookiePath(name, bySlug)).toBe('/vip');
      expect(cookiePath(name, byDomain)).toBe('/');
    }
  });
});

describe('serialising', () => {
  test('a cookie is SameSite=Lax, Secure only on HTTPS, value encoded', () => {
    const spec = cookieToSet(COOKIE.allowedRecipientToken, 'a b;c', bySlug);
    expect(serializeCookie(spec, { secure: false })).toBe(
      'allowed-recipient-token=a%20b%3Bc; Path=/vip; Max-Age=604800; SameSite=Lax',
    );
    expect(serializeCookie(spec, { secure: true })).toBe(
      'allowed-recipient-token=a%20b%3Bc; Path=/vip; Max-Age=604800; SameSite=Lax; Secure',
    );
  });

  test('a removal expires the cookie at the same path', () => {
    expect(serializeCookie(cookieToRemove(COOKIE.allowedRecipientToken, bySlug), { secure: false })).toBe(
      'allowed-recipient-token=; Path=/vip; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax',
    );
  });
});

describe('attribute injection', () => {
  test.each([
    '/acme; Path=/; Domain=127.0.0.1',
    '/acme;Domain=evil',
    '/acme\r\nSet-Cookie: x=1',
    '/my store',
    '/ACME',
    'acme',
    '',
  ])('a path such as %j is refused, never written', (path) => {
    const spec = { ...cookieToSet(COOKIE.storeSlug, 'acme', bySlug), path };
    expect(() => serializeCookie(spec, { secure: false })).toThrow(TypeError);
  });

  test('every path the site writes is accepted: /, /{slug}, /restricted', () => {
    for (const path of ['/', '/vip', '/acme-2', '/restricted'])
      expect(
        parseSetCookie(serializeCookie({ ...cookieToSet(COOKIE.storeSlug, 'vip', bySlug), path }, { secure: false }))
          .path,
      ).toBe(path);
  });

  test('a value cannot end the cookie or add attributes: it is encoded', () => {
    const header = serializeCookie(
      cookieToSet(COOKIE.allowedRecipientToken, 'x; Path=/; Domain=127.0.0.1\r\nSet-Cookie: y=1', bySlug),
      { secure: false },
    );
    const parsed = parseSetCookie(header);
    expect(parsed).toMatchObject({
      name: 'allowed-recipient-token',
      value: 'x; Path=/; Domain=127.0.0.1\r\nSet-Cookie: y=1',
      path: '/vip',
    });
    expect(parsed.domain).toBeUndefined();
    expect(header).not.toMatch(/[;\r\n]\s*(Domain|Set-Cookie)/i);
  });

  test('a cookie value that decodes to control characters is treated as absent (it would become a request header)', () => {
    expect(parseCookies('allowed-recipient-token=%00abc; browser_token=a%0Ab; recipient-token=ok')).toEqual({
      'recipient-token': 'ok',
    });
    expect(headerCookieJar('allowed-domain-token=%00').get(COOKIE.allowedDomainToken)).toBeUndefined();
  });
});

describe('parsing', () => {
  test('reads a Cookie header, decoding values; the first (most specific path) wins', () => {
    expect(parseCookies('a=1; store-slug=vip; store-slug=other; b=x%20y')).toEqual({
      a: '1',
      'store-slug': 'vip',
      b: 'x y',
    });
  });
  test('tolerates empty input and malformed parts', () => {
    expect(parseCookies(undefined)).toEqual({});
    expect(parseCookies('junk; =x; c=%E0%A4%A')).toEqual({ c: '%E0%A4%A' });
  });
  test('a server jar reads the header and ignores writes (snapshots must not set cookies)', () => {
    const jar = headerCookieJar('recipient-token=r1');
    jar.set(cookieToSet(COOKIE.recipientToken, 'r2', bySlug));
    expect(jar.get(COOKIE.recipientToken)).toBe('r1');
    expect(jar.get(COOKIE.browserToken)).toBeUndefined();
  });
});
