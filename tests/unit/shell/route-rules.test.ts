import { expect, test } from 'vitest';
import { findRedirect, isExternal, validateRoute } from '../../../src/lib/route-rules.ts';

test('a redirect rule matches the store-relative path, ignoring a trailing slash', () => {
  expect(findRedirect('/products/')).toMatchObject({ to: '/shop', status: 301 });
  expect(findRedirect('/shop')).toBeUndefined();
});

test('an external target is a full page load', () => {
  const rules = [{ from: '/help', to: 'https://help.example.com/', status: 302 as const }];
  expect(findRedirect('/help', rules)?.to).toBe('https://help.example.com/');
  expect(isExternal('https://help.example.com/')).toBe(true);
  expect(isExternal('/shop')).toBe(false);
});

test("a failed validate check is a 404 'Page Not Found: {path}'", () => {
  expect(validateRoute('/order/[id]', { id: 'not-a-uuid' }, '/acme/order/not-a-uuid')).toEqual({
    status: 404,
    message: 'Page Not Found: /acme/order/not-a-uuid',
  });
});

test('a passing check or a route without rules is fine', () => {
  expect(validateRoute('/order/[id]', { id: '8f14e45f-ea1c-4b4e-9d6a-000000000001' }, '/x')).toBeNull();
  expect(validateRoute('/product/[id]', { id: 'p-1' }, '/x')).toBeNull();
  expect(validateRoute('/shop', {}, '/x')).toBeNull();
});

test('a rule may give its own status', () => {
  const rules = [{ pattern: '/x', validate: () => false, status: 410 }];
  expect(validateRoute('/x', {}, '/acme/x', rules)?.status).toBe(410);
});

test('a collection URL needs a well-formed handle, and the bare /collections goes to the shop', () => {
  expect(validateRoute('/collections/[handle]', { handle: 'home' }, '/x')).toBeNull();
  expect(validateRoute('/collections/[handle]', { handle: 'Home Goods' }, '/acme/collections/Home Goods')).toEqual({
    status: 404,
    message: 'Page Not Found: /acme/collections/Home Goods',
  });
  expect(findRedirect('/collections/')).toMatchObject({ to: '/shop', status: 302 });
});
