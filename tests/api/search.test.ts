import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decimalToCents } from '../../src/lib/money.ts';
import { searchMatches, searchTerms } from '../../src/server/catalog/search-query.ts';
import { VIP_RECIPIENT } from '../../src/server/db/demo-data.ts';
import { acmeId } from './support/shopper.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

type Entry = { id: string; type: 'product' | 'bundle'; attributes: { name: string; price: string } };
type Found = { data: Entry[]; meta: { total: number; page: number; perPage: number } };

const search = async (store: string, query: string, headers: Record<string, string> = {}) =>
  api.call<Found>('GET', `/store_front/${store}/search?${query}`, { headers });
const names = async (q: string, extra = '') => {
  const res = await search('acme', `q=${encodeURIComponent(q)}${extra}`);
  expect(res.status).toBe(200);
  return res.body.data.map((e) => e.attributes.name);
};

describe('search', () => {
  test('finds a product by a word only its description holds', async () => {
    expect(await names('Colombia')).toEqual(['Single-Origin Coffee Beans']);
  });

  test('description markup is not text: a tag name finds nothing', async () => {
    expect(await names('strong')).toEqual([]);
    expect(await names('100% cotton')).toEqual(['Classic Cotton Tee']);
  });

  test('a word with one typo finds the product', async () => {
    expect(await names('colombai')).toEqual(['Single-Origin Coffee Beans']);
    expect(await names('stonewar mgu')).toEqual([]); // two typos in a four-letter word is another word
    expect(await names('stonewre')).toEqual(['Stoneware Mug']);
  });

  test('words match in any order, and every word must match', async () => {
    expect(await names('mug stoneware')).toEqual(['Stoneware Mug']);
    expect(await names('stoneware lamp')).toEqual([]);
  });

  test('finds by SKU and by option value', async () => {
    expect(await names('DESK-LAMP')).toContain('Task Desk Lamp');
    const byOption = await names('navy');
    expect(byOption.length).toBeGreaterThan(0);
    expect(byOption).not.toContain('Stoneware Mug');
  });

  test('products and bundles are found together, the best match first, or sorted as asked', async () => {
    const found = await search('acme', 'q=coffee&per_page=100');
    expect(new Set(found.body.data.map((e) => e.type))).toEqual(new Set(['product', 'bundle']));
    const byPrice = await search('acme', 'q=coffee&sort=-price');
    const prices = byPrice.body.data.map((e) => decimalToCents(e.attributes.price));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(byPrice.body.meta.total).toBe(found.body.meta.total);
  });

  test("each match's score is pg_trgm's word similarity to the name (twice) and to the text, whole words or not", async () => {
    const storeId = await acmeId(api);
    // A whole word of the text (scored 1 without computing it), part of a word, a typo, and two words.
    for (const query of ['coffee', 'ston', 'colombai', 'mug stoneware', 'navy cotton']) {
      const terms = searchTerms(query);
      const scores = await searchMatches(api.db, storeId, terms);
      expect(scores.size, query).toBeGreaterThan(0);
      const { rows } = await sql<{ id: number; score: number }>`
        select id, (${sql.join(
          terms.map((term) => sql`2 * word_similarity(${term}, lower(name)) + word_similarity(${term}, search_text)`),
          sql` + `,
        )})::float8 as score
        from products where store_id = ${storeId}`.execute(api.db);
      for (const { id, score } of rows)
        if (scores.has(`product:${id}`))
          expect(scores.get(`product:${id}`), `${query}: product ${id}`).toBeCloseTo(score, 6);
    }
  });

  test('pages hold the total, and a page past the end is empty with the same total', async () => {
    const first = await search('acme', 'q=coffee&per_page=1');
    expect(first.body.data).toHaveLength(1);
    const past = await search('acme', `q=coffee&per_page=1&page=${first.body.meta.total + 1}`);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.total).toBe(first.body.meta.total);
  });

  test('strange queries get a clear 422 or nothing, never a 500', async () => {
    expect((await search('acme', 'q=')).status).toBe(422);
    expect((await search('acme', '')).body).toMatchObject({ message: 'Search text is required.' });
    expect((await search('acme', `q=${'a'.repeat(101)}`)).status).toBe(422);
    expect(await names("'; drop table products; --")).toEqual([]);
    expect(await names('%_\\')).toEqual([]);
    expect(await names('?!…')).toEqual([]);
    expect(await names('コーヒー 咖啡 🙂')).toEqual([]);
    expect(await names('Café')).toEqual([]);
  });

  test('answers are cached like the catalog', async () => {
    const res = await search('acme', 'q=mug');
    expect(res.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    expect(res.headers.get('etag')).toBeTruthy();
  });

  test("a restricted store's products are found only with access, never by another store", async () => {
    const refused = await search('vip', 'q=chronograph');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: 'The store has restricted access. Please contact Admin.',
      store: { title: 'VIP Reserve' },
    });
    const allowed = await search('vip', 'q=chronograph', { 'allowed-recipient-token': VIP_RECIPIENT.uuid });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.map((e) => e.attributes.name)).toEqual(['VIP Reserve Chronograph']);
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
    expect(await names('chronograph')).toEqual([]);
    expect(await names('VIP Reserve')).toEqual([]);
  });

  test('an unknown store is 404', async () => {
    expect((await search('nope', 'q=mug')).status).toBe(404);
  });
});
