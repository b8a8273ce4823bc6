import { describe, expect, test } from 'vitest';
import {
  COOKIE,
  COOKIE_MAX_AGE_SECONDS,
  cookiePath,
  cookieToRemove,
  cookieToSet,
  headerCookieJar,
  parseCookies,
  serializeCookie,
} from '../../../src/lib/cookies.ts';

const bySlug = { slug: 'vip', customDomain: null };
const byDomain = { slug: 'vip', customDomain: 'shop.vip.test' };

test('cookie names are the spec’s', () => {
  expect(COOKIE).toEqual({
    subdomain: 'subdomain',
    storeSlug: 'store-slug',
    allowedDomainToken: 'allowed-domain-token',
    allowedRecipientToken: 'allowed-recipient-token',
    recipientToken: 'recipient-token',
    browserToken: 'browser_token',
  });
});

test('cookies last seven days (604800 s)', () => {
  expect(COOKIE_MAX_AGE_SECONDS).toBe(604800);
  expect(cookieToSet(COOKIE.storeSlug, 'vip', bySlug).maxAge).toBe(604800);
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
    expect(serializeCookie(spec, { secure: false })).toBe('allowed-recipient-token=a%20b%3Bc; Path=/vip; Max-Age=604800; SameSite=Lax');
    expect(serializeCookie(spec, { secure: true })).toMatch(/; SameSite=Lax; Secure$/);
  });

  test('a removal expires the cookie at the same path', () => {
    expect(serializeCookie(cookieToRemove(COOKIE.allowedRecipientToken, bySlug), { secure: false })).toBe(
      'allowed-recipient-token=; Path=/vip; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax',
    );
  });
});

describe('parsing', () => {
  test('reads a Cookie header, decoding values; the first (most specific path) wins', () => {
    expect(parseCookies('a=1; store-slug=vip; store-slug=other; b=x%20y')).toEqual({ a: '1', 'store-slug': 'vip', b: 'x y' });
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
