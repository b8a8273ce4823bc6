import { describe, expect, test } from 'vitest';
import { CustomDomainRouter } from '../../../src/front/custom-domain-router.ts';

const acme = { data: { id: '1', type: 'store', attributes: { title: 'Acme', slug: 'acme', faviconImage: null, allowedListsPresent: false, description: null } } };

function api(answer: (url: URL, headers: Headers) => Response) {
  const calls: string[] = [];
  const fetch = async (request: Request) => {
    calls.push(request.url);
    return answer(new URL(request.url), request.headers);
  };
  return { fetch, calls };
}

describe('CustomDomainRouter', () => {
  test('a store domain maps unprefixed paths onto the store slug', async () => {
    const stub = api(() => Response.json(acme));
    const router = new CustomDomainRouter(stub.fetch);
    expect(await router.route('shop.acme.test', '/', new URLSearchParams(), undefined)).toEqual({ kind: 'store', slug: 'acme', path: '/acme' });
    expect(await router.route('shop.acme.test', '/product/7', new URLSearchParams(), undefined)).toEqual({ kind: 'store', slug: 'acme', path: '/acme/product/7' });
    expect(stub.calls).toEqual(['http://internal/api/store_front?custom_domain=shop.acme.test']);
  });

  test('a public store is cached for the TTL, then asked again', async () => {
    const stub = api(() => Response.json(acme));
    const router = new CustomDomainRouter(stub.fetch, 1000);
    await router.route('shop.acme.test', '/', new URLSearchParams(), undefined, 0);
    await router.route('shop.acme.test', '/cart', new URLSearchParams(), undefined, 999);
    await router.route('shop.acme.test', '/cart', new URLSearchParams(), undefined, 1001);
    expect(stub.calls).toHaveLength(2);
  });

  test('access tokens in cookies are forwarded as the spec headers', async () => {
    let seen: Headers | undefined;
    const stub = api((_url, headers) => {
      seen = headers;
      return Response.json({ ...acme, data: { ...acme.data, attributes: { ...acme.data.attributes, allowedListsPresent: true } } });
    });
    const router = new CustomDomainRouter(stub.fetch);
    await router.route('vip.example.com', '/', new URLSearchParams(), 'allowed-domain-token=t1; browser_token=b2');
    expect(seen?.get('allowed-domain-token')).toBe('t1');
    expect(seen?.get('browser_token')).toBe('b2');
  });

  test('restricted, unknown and failing stores redirect to the spec pages', async () => {
    const restricted = new CustomDomainRouter(async () => Response.json({ message: 'The store has restricted access. Please contact Admin.' }, { status: 422 }));
    const missing = new CustomDomainRouter(async () => Response.json({ message: 'Record not found' }, { status: 404 }));
    const broken = new CustomDomainRouter(async () => Response.json({ message: 'boom' }, { status: 502 }));
    const offline = new CustomDomainRouter(async () => {
      throw new TypeError('fetch failed');
    });
    const go = (router: CustomDomainRouter) => router.route('shop.acme.test', '/', new URLSearchParams(), undefined);
    expect(await go(restricted)).toEqual({ kind: 'redirect', location: '/restricted' });
    expect(await go(missing)).toEqual({ kind: 'redirect', location: '/store-not-found' });
    expect(await go(broken)).toEqual({ kind: 'redirect', location: '/404' });
    expect(await go(offline)).toEqual({ kind: 'redirect', location: '/404' });
  });

  test('storeless pages and entry links with access tokens pass through untouched', async () => {
    const stub = api(() => Response.json(acme));
    const router = new CustomDomainRouter(stub.fetch);
    expect(await router.route('shop.acme.test', '/restricted', new URLSearchParams(), undefined)).toEqual({ kind: 'pass', path: '/restricted' });
    expect(await router.route('shop.acme.test', '/shop', new URLSearchParams('token=abc'), undefined)).toEqual({ kind: 'pass', path: '/shop' });
    expect(stub.calls).toEqual([]);
  });
});
