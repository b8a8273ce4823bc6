import { describe, expect, test } from 'vitest';
import { linkBaseFor, storeHref, storeLinks, storeUrl } from '../../../src/lib/store-links.ts';

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

describe('storeUrl: the one absolute address of a store page', () => {
  test('on the store’s own domain when it has one, keeping the site’s scheme and port', () => {
    expect(storeUrl({ slug: 'acme', customDomain: 'shop.acme.test' }, '/product/7', 'https://site.test').href).toBe(
      'https://shop.acme.test/product/7',
    );
    expect(storeUrl({ slug: 'acme', customDomain: 'shop.acme.test' }, '/', 'http://localhost:4321').href).toBe(
      'http://shop.acme.test:4321/',
    );
  });

  test('under /{slug} on the site otherwise', () => {
    expect(storeUrl({ slug: 'acme', customDomain: null }, '/product/7', 'https://site.test').href).toBe(
      'https://site.test/acme/product/7',
    );
    expect(storeUrl({ slug: 'acme', customDomain: null }, '/', 'https://site.test').href).toBe(
      'https://site.test/acme',
    );
  });
});
