import { describe, expect, test } from 'vitest';
import { CustomDomainRouter } from '../../../src/front/custom-domain-router.ts';

const acme = {
  data: {
    id: '1',
    type: 'store',
    attributes: { title: 'Acme', slug: 'acme', faviconImage: null, allowedListsPresent: false, description: null },
  },
};

function api(answer: (url: URL, headers: Headers) => Response) {
  const calls: string[] = [];
  const fetch = async (request: Request) => {
    calls.push(request.url);
    return answer(new URL(request.url), request.headers);
  };
  return { fetch, calls };
}

describe('CustomDomainRouter', () => {
  test('a store domain maps unprefixed paths onto the store slug, handing on the store it fetched', async () => {
    const stub = api(() => Response.json(acme));
    const router = new CustomDomainRouter(stub.fetch);
    expect(await router.route('shop.acme.test', '/', new URLSearchParams(), undefined)).toEqual({
      kind: 'store',
      slug: 'acme',
      path: '/acme',
      outcome: { kind: 'store', store: acme.data.attributes },
    });
    expect(await router.route('shop.acme.test', '/product/7', new URLSearchParams(), undefined)).toMatchObject({
      kind: 'store',
      slug: 'acme',
      path: '/acme/product/7',
    });
    expect(stub.calls).toEqual(['http://internal/api/store_front?custom_domain=shop.acme.test']);
  });

  test('a public store is kept for the TTL, then asked again', async () => {
    const stub = api(() => Response.json(acme));
    let now = 5000;
    const router = new CustomDomainRouter(stub.fetch, 1000, { now: () => now });
    await router.route('shop.acme.test', '/', new URLSearchParams(), undefined);
    now = 5999;
    await router.route('shop.acme.test', '/cart', new URLSearchParams(), undefined);
    now = 6001;
    await router.route('shop.acme.test', '/cart', new URLSearchParams(), undefined);
    expect(stub.calls).toHaveLength(2);
  });

  test('a restricted store is asked again on every request', async () => {
    const vip = { ...acme, data: { ...acme.data, attributes: { ...acme.data.attributes, allowedListsPresent: true } } };
    const stub = api(() => Response.json(vip));
    const router = new CustomDomainRouter(stub.fetch);
    await router.route('vip.example.com', '/', new URLSearchParams(), undefined);
    await router.route('vip.example.com', '/', new URLSearchParams(), undefined);
    expect(stub.calls).toHaveLength(2);
  });

  test('access tokens in cookies are forwarded as the spec headers', async () => {
    let seen: Headers | undefined;
    const stub = api((_url, headers) => {
      seen = headers;
      return Response.json({
        ...acme,
        data: { ...acme.data, attributes: { ...acme.data.attributes, allowedListsPresent: true } },
      });
    });
    const router = new CustomDomainRouter(stub.fetch);
    await router.route('vip.example.com', '/', new URLSearchParams(), 'allowed-domain-token=t1; browser_token=b2');
    expect(seen?.get('allowed-domain-token')).toBe('t1');
    expect(seen?.get('browser_token')).toBe('b2');
  });

  test('restricted, unknown and failing stores redirect to the spec §8 pages', async () => {
    const answering = (status: number, message: string) =>
      new CustomDomainRouter(async () => Response.json({ message }, { status }));
    const offline = new CustomDomainRouter(async () => {
      throw new TypeError('fetch failed');
    });
    const go = async (router: CustomDomainRouter) => {
      const route = await router.route('shop.acme.test', '/', new URLSearchParams(), undefined);
      return route.kind === 'redirect' ? route.decision.location : route.kind;
    };
    expect(await go(answering(422, 'The store has restricted access. Please contact Admin.'))).toBe('/restricted');
    expect(await go(answering(404, 'Record not found'))).toBe('/store-not-found');
    expect(await go(answering(502, 'boom'))).toBe('/404');
    expect(await go(offline)).toBe('/404?load-error=1');
  });

  test('a store that cannot be reached is reported as spec §8 words it', async () => {
    const offline = new CustomDomainRouter(async () => {
      throw new TypeError('fetch failed');
    });
    const route = await offline.route('shop.acme.test', '/shop', new URLSearchParams(), undefined);
    expect(route).toMatchObject({
      kind: 'redirect',
      decision: { reason: 'no-answer', loadError: 'Unable Fetch Store', report: 'Unable to get store: shop.acme.test' },
    });
  });

  test('storeless pages and entry links with access tokens pass through untouched', async () => {
    const stub = api(() => Response.json(acme));
    const router = new CustomDomainRouter(stub.fetch);
    expect(await router.route('shop.acme.test', '/restricted', new URLSearchParams(), undefined)).toEqual({
      kind: 'pass',
      path: '/restricted',
    });
    expect(await router.route('shop.acme.test', '/shop', new URLSearchParams('token=abc'), undefined)).toEqual({
      kind: 'pass',
      path: '/shop',
    });
    expect(stub.calls).toEqual([]);
  });
});
