/**
 * Large catalog reads come back as one JSON array (src/server/db/rows-as-json.ts,
 * docs/decisions/223-large-reads-as-json.md): on PGlite and PostgreSQL alike they must give the rows the plain
 * read gives, in its order, with the same JavaScript values.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsAsJson } from '../../src/server/db/rows-as-json.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

test('a read as JSON gives the rows of the plain read, in its order, with the same values', async () => {
  const variants = () =>
    api.db
      .selectFrom('product_variants')
      .select(['id', 'product_id', 'sku', 'name', 'options', 'price_cents', 'stock'])
      .orderBy('price_cents', 'desc')
      .orderBy('id');
  const plain = await variants().execute();
  expect(plain.length).toBeGreaterThan(10);
  expect(await rowsAsJson(api.db, variants())).toEqual(plain);
  // Arrays, nullable ids and booleans too, and a price above 2^31 (int8) stays a number.
  await api.db
    .updateTable('product_variants')
    .set({ price_cents: 2 ** 40 + 7 })
    .where('id', '=', plain[0]!.id)
    .execute();
  const products = () =>
    api.db
      .selectFrom('products')
      .select(['id', 'name', 'description_html', 'featured', 'option_names', 'default_image_id'])
      .orderBy('name', 'desc');
  expect(await rowsAsJson(api.db, products())).toEqual(await products().execute());
  expect(await rowsAsJson(api.db, variants())).toEqual(await variants().execute());
  expect((await rowsAsJson(api.db, variants()))[0]!.price_cents).toBe(2 ** 40 + 7);
  expect(await rowsAsJson(api.db, variants().where('id', '<', 0))).toEqual([]);
});
