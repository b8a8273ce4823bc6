import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { importCatalog } from '../../src/server/catalog/import.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

describe("a store's policy pages (ADR 182)", () => {
  test('store info lists the policies the store wrote, in footer order, and its contact address', async () => {
    const res = await api.call('GET', '/store_front/acme');
    expect(res.body.data.attributes).toMatchObject({
      policies: ['shipping', 'returns', 'privacy', 'terms'],
      contactEmail: 'help@acme.test',
    });
  });

  test('a policy is answered with its title and text, cached like the catalog', async () => {
    const res = await api.call('GET', '/store_front/acme/policies/returns');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: 'returns',
      type: 'policy',
      attributes: { kind: 'returns', title: 'Returns and refunds' },
    });
    expect(res.body.data.attributes.bodyHtml).toContain('within 30 days');
    expect(res.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=300');
    expect(res.headers.get('etag')).toBeTruthy();
  });

  test('an unknown kind, or one the store did not write, is 404', async () => {
    expect((await api.call('GET', '/store_front/acme/policies/refunds')).status).toBe(404);
    const vip = { headers: { 'allowed-recipient-token': VIP_UUID } };
    expect((await api.call('GET', '/store_front/vip/policies/terms', vip)).status).toBe(404);
    expect((await api.call('GET', '/store_front/vip/policies/privacy', vip)).status).toBe(200);
  });

  test("a restricted store's policies need access like the rest of it", async () => {
    const res = await api.call('GET', '/store_front/vip/policies/privacy');
    expect(res.status).toBe(422);
  });

  test('imported policy text is sanitised as descriptions are, and a bad contact address is refused', async () => {
    await importCatalog(
      api.db,
      parseCatalog({
        store: {
          slug: 'policy-test',
          title: 'Policy Test',
          policies: { terms: '<p onclick="steal()">Fair terms<script>alert(1)</script></p>' },
        },
      }),
    );
    const res = await api.call('GET', '/store_front/policy-test/policies/terms');
    expect(res.body.data.attributes.bodyHtml).toBe('<p>Fair terms</p>');
    expect((await api.call('GET', '/store_front/policy-test')).body.data.attributes).toMatchObject({
      policies: ['terms'],
      contactEmail: null,
    });
    expect(() => parseCatalog({ store: { slug: 'x', title: 'X', contact_email: 'not an email' } })).toThrow(
      /store\.contact_email/,
    );
    expect(() => parseCatalog({ store: { slug: 'x', title: 'X', policies: { cookies: '<p>…</p>' } } })).toThrow(
      /store\.policies/,
    );
  });
});
