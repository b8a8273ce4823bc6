import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** Store rows are reused for STORE_CACHE_MS (docs/decisions/070): what an operator's change looks like. */

const RESTRICTED = {
  message: 'The store has restricted access. Please contact Admin.',
  store: { title: 'Acme Supply Co.' },
};

describe('with the default STORE_CACHE_MS (1 s)', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp();
  });
  afterAll(async () => api?.close());

  const title = async (slug = 'acme') => (await api.call('GET', `/store_front/${slug}`)).body.data.attributes.title;
  const rename = (to: string, slug = 'acme') =>
    api.db.updateTable('stores').set({ title: to }).where('slug', '=', slug).execute();

  test('a change to a store is seen by every call once the second has passed, not before', async () => {
    expect(await title()).toBe('Acme Supply Co.');
    await rename('Acme Renamed');
    expect(await title()).toBe('Acme Supply Co.');
    api.clock.offsetMs += 500;
    expect(await title()).toBe('Acme Supply Co.');
    api.clock.offsetMs += 500;
    expect(await title()).toBe('Acme Renamed');
    await rename('Acme Supply Co.');
    api.clock.offsetMs += 1000;
  });

  test('a store made restricted refuses shoppers within the second', async () => {
    expect((await api.call('GET', '/store_front/acme/products')).status).toBe(200);
    await api.db.updateTable('stores').set({ restricted: true }).where('slug', '=', 'acme').execute();
    api.clock.offsetMs += 1000;
    const refused = await api.call('GET', '/store_front/acme/products');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(RESTRICTED);
    await api.db.updateTable('stores').set({ restricted: false }).where('slug', '=', 'acme').execute();
    api.clock.offsetMs += 1000;
    expect((await api.call('GET', '/store_front/acme/products')).status).toBe(200);
  });

  test('an unknown store is not remembered: once created it is found at once', async () => {
    expect((await api.call('GET', '/store_front/brand-new')).status).toBe(404);
    await api.db
      .insertInto('stores')
      .values({
        slug: 'brand-new',
        title: 'Brand New',
        description: null,
        restricted: false,
        custom_domain: null,
        favicon_url: null,
        tax_rate_bps: 0,
        shipping_flat_cents: 0,
        free_shipping_threshold_cents: null,
      })
      .execute();
    expect((await api.call('GET', '/store_front/brand-new')).status).toBe(200);
  });
});

describe('with STORE_CACHE_MS=0', () => {
  let api: TestApp;
  beforeAll(async () => {
    api = await startTestApp({ STORE_CACHE_MS: '0' });
  });
  afterAll(async () => api?.close());

  test('every call reads the store', async () => {
    await api.db.updateTable('stores').set({ title: 'Seen at once' }).where('slug', '=', 'acme').execute();
    expect((await api.call('GET', '/store_front/acme')).body.data.attributes.title).toBe('Seen at once');
  });
});
