// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { renderCookies } from '../../../src/lib/cookies.ts';
import { checkStore } from '../../../src/scripts/store-check.ts';
import { $loadError } from '../../../src/stores/loading.ts';
import { $store } from '../../../src/stores/store.ts';
import { acme, vip } from './fixtures.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let replaced: string[];

beforeEach(() => {
  replaced = [];
  vi.spyOn(window.location, 'replace').mockImplementation((url: string | URL) => void replaced.push(String(url)));
  for (const c of document.cookie.split(';')) document.cookie = `${c.split('=')[0]?.trim()}=; Max-Age=0; Path=/`;
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function at(path: string) {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`http://localhost${path}`);
}

test('a snapshot of a store that became restricted sends the shopper to /restricted', async () => {
  at('/vip/shop');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => json(422, { message: 'The store has restricted access. Please contact Admin.' })),
  );
  expect(await checkStore(null)).toBe(false);
  expect(replaced).toEqual(['/restricted']);
});

test('an access link on a snapshot is stored and dropped from the URL through /refresh', async () => {
  at('/acme/shop?uuid=u-1&page=2');
  const fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  expect(await checkStore(null)).toBe(false);
  expect(fetchMock).not.toHaveBeenCalled();
  expect(replaced).toEqual([`/refresh?to=${encodeURIComponent('/acme/shop?page=2')}`]);
});

test('a store fetch without an answer raises the load error and goes to /404', async () => {
  at('/acme');
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('offline'))),
  );
  expect(await checkStore(null)).toBe(false);
  expect($loadError.get()).toBe('Unable Fetch Store');
  expect(replaced).toEqual(['/404?load-error=1']);
  expect(console.error).toHaveBeenCalledWith('Unable to get store: acme');
});

test('a store that still loads stays and is saved', async () => {
  at('/acme');
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => json(200, { data: { id: '1', type: 'store', attributes: acme } })),
  );
  expect(await checkStore(null)).toBe(true);
  expect($store.get()).toEqual(acme);
  expect(replaced).toEqual([]);
});

test('rendering a snapshot gives the store-slug cookie, and an open store drops a stale recipient token', () => {
  expect(renderCookies(vip, null)).toEqual([{ name: 'store-slug', value: 'vip', path: '/vip', maxAge: 604800 }]);
  expect(renderCookies(acme, 'shop.acme.test')).toEqual([
    { name: 'store-slug', value: 'acme', path: '/', maxAge: 604800 },
    { name: 'subdomain', value: 'shop.acme.test', path: '/', maxAge: 604800 },
    { name: 'allowed-recipient-token', value: null, path: '/', maxAge: 0 },
  ]);
});
