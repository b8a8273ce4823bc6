import { expect, test } from 'vitest';
import { linkBaseFor, storeHref, storeLinks } from '../../../src/lib/store-links.ts';

test('a slug store links under /{slug}', () => {
  const links = storeLinks(linkBaseFor('acme', null));
  expect([links.home, links.shop, links.cart, links.checkout]).toEqual([
    '/acme',
    '/acme/shop',
    '/acme/cart',
    '/acme/checkout',
  ]);
  expect(links.product('7')).toBe('/acme/product/7');
  expect(links.bundle('b 1')).toBe('/acme/product-bundle/b%201');
  expect(links.order('o1')).toBe('/acme/order/o1');
  expect(links.orderConfirmation('o1')).toBe('/acme/order-confirmation/o1');
});

test('a custom-domain store links without a prefix: home is / and cart is /cart', () => {
  const links = storeLinks(linkBaseFor('acme', 'shop.acme.test'));
  expect([links.home, links.cart, links.product('7')]).toEqual(['/', '/cart', '/product/7']);
});

test('storeHref accepts paths with or without a leading slash', () => {
  expect(storeHref('/acme', 'shop')).toBe('/acme/shop');
  expect(storeHref('', '/')).toBe('/');
});
