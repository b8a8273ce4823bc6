import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readCatalogFile } from '../../src/server/catalog/catalog-file.ts';
import { importCatalogProducts } from '../../src/server/catalog/import.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
let dir: string;
beforeAll(async () => {
  api = await startTestApp();
  dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-file-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await api?.close();
});

function file(name: string, text: string): string {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

const product = (i: number) => ({
  id: `item-${i}`,
  name: `Item ${i} “quoted” {braces}`,
  description_html: `<p>Item <strong>${i}</strong></p>`,
  option_names: i % 2 ? ['Size'] : [],
  images: [{ url: '/images/demo/ceramic-mug-1.svg', alt: `Item ${i}`, variant_skus: i % 2 ? [`I${i}-S`] : [] }],
  variants:
    i % 2
      ? ['S', 'M'].map((size) => ({
          sku: `I${i}-${size}`,
          name: size,
          options: { Size: size },
          price: '4.50',
          stock: 3,
        }))
      : [{ sku: `I${i}`, name: 'Default', price: `${i}.25`, stock: i }],
});

/** Members in an order a streaming reader must not rely on: products last, after what names them. */
const catalog = {
  collections: [{ handle: 'odd', title: 'Odd ones', items: [{ product: 'item-1' }, { bundle: 'pair' }] }],
  bundles: [{ id: 'pair', name: 'A pair', items: [{ product: 'item-2', sku: 'I2', quantity: 2 }] }],
  store: { slug: 'streamed', title: 'Streamed Goods' },
  products: Array.from({ length: 40 }, (_, i) => product(i + 1)),
};

describe('a catalog file read as a stream', () => {
  test('is imported like the same catalog in memory: products in file order, bundles, collections', async () => {
    const read = await readCatalogFile(file('good.json', JSON.stringify(catalog, null, 1)));
    expect(read.productCount).toBe(40);
    const summary = await importCatalogProducts(api.db, read.head, read.products());
    expect(summary).toEqual({ store: 'streamed', products: 40, bundles: 1, collections: 1, giftCards: 0 });
    const names = await api.db
      .selectFrom('products as p')
      .innerJoin('stores as s', 's.id', 'p.store_id')
      .select(['p.external_id', 'p.position'])
      .where('s.slug', '=', 'streamed')
      .orderBy('p.position')
      .execute();
    expect(names.map((p) => p.external_id)).toEqual(catalog.products.map((p) => p.id));
    const listed = await api.call('GET', '/store_front/streamed/products?per_page=50');
    expect(listed.body.meta.total).toBe(40);
    const bundle = await api.call('GET', '/store_front/streamed/bundles');
    expect(bundle.body.data[0].attributes.price).toBe('4.50');
  });

  test('a bad product is refused, naming its place and field, before anything is written', async () => {
    const bad = structuredClone(catalog);
    bad.store.slug = 'never-streamed';
    bad.products[30]!.variants[0]!.price = 'free';
    bad.products[31]!.images[0]!.variant_skus = ['NOPE'];
    const at = file('bad.json', JSON.stringify(bad));
    await expect(readCatalogFile(at)).rejects.toThrow(/products\.30\.variants\.0\.price/);
    await expect(readCatalogFile(at)).rejects.toThrow(
      /products\.31\.images\.0\.variant_skus\.0: no variant with sku NOPE/,
    );
    const store = await api.db
      .selectFrom('stores')
      .select('id')
      .where('slug', '=', 'never-streamed')
      .executeTakeFirst();
    expect(store).toBeUndefined();
  });

  test('a product id or a bundle id twice is refused, naming the second, instead of the later replacing the earlier', async () => {
    const twice = structuredClone(catalog);
    twice.products[25]!.id = 'item-3';
    twice.bundles.push({ ...twice.bundles[0]!, name: 'Another pair' });
    const at = file('twice.json', JSON.stringify(twice));
    await expect(readCatalogFile(at)).rejects.toThrow(/products\.25\.id: is used by another product/);
    twice.products[25]!.id = 'item-26';
    await expect(readCatalogFile(file('bundles-twice.json', JSON.stringify(twice)))).rejects.toThrow(
      /bundles\.1\.id: is used by another bundle/,
    );
  });

  test('a collection naming a product the file does not hold is refused', async () => {
    const bad = structuredClone(catalog);
    bad.collections[0]!.items.push({ product: 'item-99' });
    await expect(readCatalogFile(file('missing.json', JSON.stringify(bad)))).rejects.toThrow(
      /collections\.0\.items\.2\.product: no product item-99 in this catalog/,
    );
  });

  test('broken JSON is refused with the file and where', async () => {
    const text = JSON.stringify(catalog);
    await expect(readCatalogFile(file('cut.json', text.slice(0, text.length - 40)))).rejects.toThrow(
      /cut\.json: cannot read JSON/,
    );
    await expect(readCatalogFile(file('typo.json', text.replace('"price":"6.25"', '"price":6.25.1')))).rejects.toThrow(
      /typo\.json: cannot read JSON in products\.5/,
    );
  });

  test('products that are not a list get the schema’s answer', async () => {
    const text = JSON.stringify({ store: catalog.store, products: { id: 'x' } });
    await expect(readCatalogFile(file('object.json', text))).rejects.toThrow(/Invalid catalog:\n {2}products/);
  });
});
