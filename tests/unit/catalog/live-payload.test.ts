import { expect, test } from 'vitest';
import { bundlePayloadData, payloadUrl, productPayloadData } from '../../../src/lib/catalog/live-payload.ts';
import type { CatalogPayload } from '../../../src/lib/page-data/catalog-pages.ts';

const variant = {
  id: '2',
  name: 'S / Navy',
  options: { Size: 'S', Color: 'Navy' },
  price: '18.00',
  available: true,
  stock: 5,
};
const product: CatalogPayload = {
  page: 'product',
  path: '/acme/product/1',
  data: {
    product: {
      id: '1',
      name: 'Tee',
      description: '',
      price: '18.00',
      available: true,
      optionNames: ['Size', 'Color'],
      gallery: [],
    },
    variants: [variant],
    variantMeta: {},
    collections: [],
    related: [],
  },
};
const bundle: CatalogPayload = {
  page: 'bundle',
  path: '/acme/product-bundle/3',
  data: { bundle: { id: '3', name: 'Kit', description: '', price: '40.00', available: false, gallery: [] }, items: [] },
};

test('a page’s payload of a build is {path}/_payload.json?{build id}, with or without a trailing slash', () => {
  expect(payloadUrl('/acme/product/1', 'b1-x')).toBe('/acme/product/1/_payload.json?b1-x');
  expect(payloadUrl('/product/1/', 'b 2')).toBe('/product/1/_payload.json?b%202');
});

test('a product payload gives the island its variants', () => {
  expect(productPayloadData(product)).toEqual({ variants: [variant] });
});

test('a bundle payload gives the island its price and availability', () => {
  expect(bundlePayloadData(bundle)).toEqual({ price: '40.00', available: false });
});

test('another page’s payload, or anything else, gives nothing', () => {
  expect(productPayloadData(bundle)).toBeNull();
  expect(bundlePayloadData(product)).toBeNull();
  expect(productPayloadData({ page: 'product', data: { variants: 'x' } })).toBeNull();
  expect(bundlePayloadData({ page: 'bundle', data: { bundle: { price: 40 } } })).toBeNull();
  expect(productPayloadData(null)).toBeNull();
  expect(bundlePayloadData('<html>')).toBeNull();
});
