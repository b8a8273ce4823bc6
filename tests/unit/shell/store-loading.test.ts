import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  decideStoreLoading,
  fetchOutcome,
  isStorelessPath,
  namesNoStore,
  safeReturnPath,
  slugFromPath,
  type StoreLoadingDecision,
} from '../../../src/lib/store-loading.ts';
import { COOKIE_MAX_AGE_SECONDS } from '../../../src/lib/cookies.ts';
import { ApiError } from '../../../src/lib/api-error.ts';
import { acme, vip } from './fixtures.ts';

const UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';

function redirectOf(decision: StoreLoadingDecision) {
  if (decision.kind !== 'redirect') throw new Error(`expected a redirect, got ${decision.kind}`);
  return decision;
}

describe('step 1: a store must be named', () => {
  test('the bare root on a shared host goes to /404', () => {
    const d = redirectOf(decideStoreLoading({ path: '/', search: '', customDomain: null }));
    expect(d).toMatchObject({ reason: 'no-store', location: '/404', replace: true, cookies: [] });
  });

  test.each(['/shop', '/cart', '/checkout', '/product/7', '/product-bundle/3', '/order/x', '/order-confirmation/x'])(
    'an unprefixed store page %s on a shared host goes to /404',
    (path) => {
      expect(redirectOf(decideStoreLoading({ path, search: '', customDomain: null })).location).toBe('/404');
    },
  );

  test('an unprefixed path on a custom domain is fetched by domain', () => {
    expect(decideStoreLoading({ path: '/shop', search: '', customDomain: 'shop.acme.test' })).toEqual({
      kind: 'fetch',
      lookup: { by: 'domain', domain: 'shop.acme.test' },
    });
  });

  test('a prefixed path is fetched by slug', () => {
    expect(decideStoreLoading({ path: '/acme/product/7', search: '', customDomain: null })).toEqual({
      kind: 'fetch',
      lookup: { by: 'slug', slug: 'acme' },
    });
  });
});

describe('store-less pages are never loaded', () => {
  test.each(['/404', '/home', '/refresh', '/restricted', '/store-not-found', '/vip/restricted', '/acme/404'])(
    '%s is store-less',
    (path) => {
      expect(isStorelessPath(path)).toBe(true);
      expect(decideStoreLoading({ path, search: '?uuid=x', customDomain: null })).toEqual({ kind: 'storeless' });
    },
  );

  test('a store page is not store-less', () => {
    expect(isStorelessPath('/acme/shop')).toBe(false);
    expect(isStorelessPath('/acme/product/404')).toBe(false);
  });
});

describe('step 2: access links become cookies and leave the URL', () => {
  test('a uuid sets the allowed-recipient cookie under the store path and replaces to /refresh', () => {
    const d = redirectOf(decideStoreLoading({ path: '/vip', search: `?uuid=${UUID}`, customDomain: null }));
    expect(d.reason).toBe('access-link');
    expect(d.replace).toBe(true);
    expect(d.location).toBe('/refresh?to=%2Fvip');
    expect(d.cookies).toEqual([
      { name: 'allowed-recipient-token', value: UUID, path: '/vip', maxAge: COOKIE_MAX_AGE_SECONDS },
    ]);
  });

  test('a token sets the allowed-domain cookie; other query parameters survive the trip', () => {
    const d = redirectOf(decideStoreLoading({ path: '/vip/shop', search: '?token=abc&page=2', customDomain: null }));
    expect(d.location).toBe(`/refresh?to=${encodeURIComponent('/vip/shop?page=2')}`);
    expect(d.cookies).toEqual([{ name: 'allowed-domain-token', value: 'abc', path: '/vip', maxAge: 604800 }]);
  });

  test('on a custom domain both cookies live at / and the return path stays unprefixed', () => {
    const d = redirectOf(
      decideStoreLoading({ path: '/cart', search: '?uuid=u1&token=t1', customDomain: 'shop.acme.test' }),
    );
    expect(d.location).toBe('/refresh?to=%2Fcart');
    expect(d.cookies.map((c) => [c.name, c.value, c.path])).toEqual([
      ['allowed-recipient-token', 'u1', '/'],
      ['allowed-domain-token', 't1', '/'],
    ]);
  });

  test('an empty uuid still leaves the URL but stores nothing', () => {
    const d = redirectOf(decideStoreLoading({ path: '/vip', search: '?uuid=', customDomain: null }));
    expect(d.location).toBe('/refresh?to=%2Fvip');
    expect(d.cookies).toEqual([]);
  });
});

describe('steps 3 and 4: a loaded store renders', () => {
  test('a public store renders with its slug cookie and drops a stale allowed-recipient cookie', () => {
    const d = decideStoreLoading({
      path: '/acme/shop',
      search: '',
      customDomain: null,
      outcome: { kind: 'store', store: acme },
    });
    expect(d).toEqual({
      kind: 'render',
      store: acme,
      linkBase: '/acme',
      cookies: [
        { name: 'store-slug', value: 'acme', path: '/acme', maxAge: 604800 },
        { name: 'allowed-recipient-token', value: null, path: '/acme', maxAge: 0 },
      ],
    });
  });

  test('a restricted store keeps the allowed-recipient cookie', () => {
    const d = decideStoreLoading({
      path: '/vip',
      search: '',
      customDomain: null,
      outcome: { kind: 'store', store: vip },
    });
    expect(d.kind === 'render' && d.cookies.map((c) => c.name)).toEqual(['store-slug']);
  });

  test('on a custom domain links are unprefixed and cookies live at /', () => {
    const d = decideStoreLoading({
      path: '/',
      search: '',
      customDomain: 'shop.acme.test',
      outcome: { kind: 'store', store: acme },
    });
    if (d.kind !== 'render') throw new Error(d.kind);
    expect(d.linkBase).toBe('');
    expect(d.cookies.map((c) => [c.name, c.value, c.path])).toEqual([
      ['store-slug', 'acme', '/'],
      ['subdomain', 'shop.acme.test', '/'],
      ['allowed-recipient-token', null, '/'],
    ]);
  });
});

describe('step 5: failures (spec §8)', () => {
  test('422 stores the slug cookie and goes to /restricted', () => {
    const d = redirectOf(
      decideStoreLoading({
        path: '/vip',
        search: '',
        customDomain: null,
        outcome: { kind: 'error', status: 422, message: 'The store has restricted access. Please contact Admin.' },
      }),
    );
    expect(d.reason).toBe('restricted');
    expect(d.location).toBe('/restricted');
    // The spec path /vip, plus a copy /restricted can read (it lies outside /vip).
    expect(d.cookies.map((c) => [c.name, c.value, c.path])).toEqual([
      ['store-slug', 'vip', '/vip'],
      ['store-slug', 'vip', '/restricted'],
    ]);
  });

  test("404 'Record not found' goes to /store-not-found", () => {
    const d = redirectOf(
      decideStoreLoading({
        path: '/nope',
        search: '',
        customDomain: null,
        outcome: { kind: 'error', status: 404, message: 'Record not found' },
      }),
    );
    expect(d).toMatchObject({ reason: 'store-not-found', location: '/store-not-found', cookies: [] });
  });

  test.each([
    [404, 'Something else'],
    [422, 'The quantity is not valid.'],
    [500, 'boom'],
    [400, null],
    [401, 'Unauthorized'],
  ])('any other error answer (%i %s) goes to /404', (status, message) => {
    const d = redirectOf(
      decideStoreLoading({
        path: '/acme',
        search: '',
        customDomain: null,
        outcome: { kind: 'error', status, message },
      }),
    );
    expect(d).toMatchObject({ reason: 'error-answer', location: '/404' });
    expect(d.loadError).toBeUndefined();
  });

  test("no answer sets the load error 'Unable Fetch Store', reports 'Unable to get store:' and the slug, and goes to /404", () => {
    const d = redirectOf(
      decideStoreLoading({ path: '/acme/shop', search: '', customDomain: null, outcome: { kind: 'no-answer' } }),
    );
    expect(d).toMatchObject({
      reason: 'no-answer',
      location: '/404?load-error=1',
      loadError: 'Unable Fetch Store',
      report: 'Unable to get store: acme',
    });
  });
});

describe('fetchOutcome: one classification of a store call', () => {
  test('an answered store is the store', async () => {
    expect(await fetchOutcome(async () => ({ data: { id: '1', type: 'store', attributes: acme } }))).toEqual({
      kind: 'store',
      store: acme,
    });
  });

  test('an error answer keeps its status and message', async () => {
    const restricted = new ApiError(422, { message: 'The store has restricted access. Please contact Admin.' });
    expect(await fetchOutcome(() => Promise.reject(restricted))).toEqual({
      kind: 'error',
      status: 422,
      message: 'The store has restricted access. Please contact Admin.',
    });
  });

  test('a failure without an answer is no answer, which leads to /404?load-error=1', async () => {
    const outcome = await fetchOutcome(() => Promise.reject(new TypeError('fetch failed')));
    expect(outcome).toEqual({ kind: 'no-answer' });
    expect(
      redirectOf(decideStoreLoading({ path: '/', search: '', customDomain: 'shop.acme.test', outcome })).location,
    ).toBe('/404?load-error=1');
  });
});

describe('slugFromPath', () => {
  test('takes the first segment, decoded', () => {
    expect(slugFromPath('/acme/shop')).toBe('acme');
    expect(slugFromPath('/%61cme')).toBe('acme');
  });
  test('gives null for the root, a store page name, or a malformed escape', () => {
    expect(slugFromPath('/')).toBeNull();
    expect(slugFromPath('/checkout')).toBeNull();
    expect(slugFromPath('/%E0%A4%A')).toBeNull();
  });
  // The slug becomes a cookie path: '/acme; Path=/; Domain=…' would add attributes to the cookie.
  test.each([
    '/acme%3B%20Path%3D%2F%3B%20Domain%3D127.0.0.1',
    '/acme;%20Domain=evil',
    '/acme%0D%0ASet-Cookie:%20x=1',
    '/my%20store',
    '/ACME',
    '/-acme',
    '/acme%2Fshop',
    `/${'a'.repeat(64)}`,
  ])('gives null for %s, which breaks the slug grammar', (path) => {
    expect(slugFromPath(path)).toBeNull();
  });
});

test('only the root and unprefixed store pages name no store; other slug-less paths are pages of their own', () => {
  expect(['/', '/shop', '/product/7', '/cart'].map(namesNoStore)).toEqual([true, true, true, true]);
  expect(['/robots.txt', '/acme', '/acme%3B%20Path%3D%2F', '/favicon.ico'].map(namesNoStore)).toEqual([
    false,
    false,
    false,
    false,
  ]);
});

test('an access link on a path that is no slug sets no cookie and goes to /404', () => {
  const d = redirectOf(
    decideStoreLoading({
      path: '/acme%3B%20Path%3D%2F%3B%20Domain%3D127.0.0.1',
      search: '?uuid=X',
      customDomain: null,
    }),
  );
  expect(d).toMatchObject({ reason: 'no-store', location: '/404', cookies: [] });
});

describe('the /refresh target only stays on this site', () => {
  test.each([
    ['/vip', '/vip'],
    ['/vip/shop?page=2', '/vip/shop?page=2'],
    ['/a/../b', '/b'],
  ])('%s is kept as %s', (to, expected) => {
    expect(safeReturnPath(to)).toBe(expected);
  });

  test.each([
    null,
    '',
    'vip',
    '//evil.com',
    '//evil.com/path',
    '/\\evil.com',
    '/\t/evil.com',
    'https://evil.com',
    'javascript:alert(1)',
    '\\\\evil.com',
  ])('%s becomes /', (to) => {
    expect(safeReturnPath(to)).toBe('/');
  });
});

/** What a browser does with a Location header: resolve it against the page it came from. */
function browserTarget(location: string): URL {
  return new URL(location, 'https://shop.example/refresh?to=x');
}

describe('the /refresh target is checked after URL normalisation', () => {
  // Each of these normalises (dot segments, encoded dots) to a path that begins with '//'.
  test.each([
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/x/..//evil.example',
    '/a/b/../..//evil.example',
    '/././/evil.example/x?y=1',
  ])('%s becomes /', (to) => {
    expect(safeReturnPath(to)).toBe('/');
  });

  test('no string whatever leads a browser to another origin, and the answer is always a clean path', () => {
    const piece = fc.constantFrom(
      '/',
      '//',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2f',
      '%2F',
      '\\',
      '%5c',
      '\t',
      '\n',
      '\r',
      '\u0000',
      ' ',
      '@',
      ':',
      'evil.example',
      'https:',
      'javascript:',
      '?',
      '#',
      'a',
      '%00',
      '%09',
      '\u3002',
      '\uff0e',
    );
    const target = fc.oneof(
      fc.string(),
      fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(target, (to) => {
        const location = safeReturnPath(to);
        expect(location.startsWith('/')).toBe(true);
        expect(location.startsWith('//')).toBe(false);
        expect(/[\u0000-\u0020\u007f\\]/.test(location)).toBe(false);
        expect(browserTarget(location).origin).toBe('https://shop.example');
      }),
      { numRuns: 5000 },
    );
  });
});
