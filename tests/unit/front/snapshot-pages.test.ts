/**
 * The snapshot lists its pages through the render's API (in process, through the snapshot's memo), not
 * over HTTP to its own port: calling itself over the loopback socket, past the memo, once made the
 * 10,000-product build three times slower (docs/decisions/060-benchmarks-and-budgets.md).
 */
import { afterEach, expect, test, vi } from 'vitest';
import { snapshotPages } from '../../../src/front/snapshot-pages.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const product = (id: string) => ({
  id,
  type: 'product',
  attributes: {
    name: `P${id}`,
    description: '',
    price: '1.00',
    images: [],
    default_e_commerce_image_id: null,
    available: true,
    featured: false,
    optionNames: [],
  },
});

test('the page list and each payload are read with the render API’s own fetch, never the global one', async () => {
  const global = vi.spyOn(globalThis, 'fetch');
  const asked: string[] = [];
  const api = {
    baseUrl: 'http://127.0.0.1:1/api/',
    fetch: vi.fn<typeof fetch>(async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      asked.push(url.pathname);
      const store = {
        data: {
          id: '1',
          type: 'store',
          attributes: {
            title: 'Acme',
            slug: 'acme',
            faviconImage: null,
            allowedListsPresent: false,
            description: null,
            policies: ['returns'],
            collections: [{ handle: 'home', title: 'Home' }],
          },
        },
      };
      const body = url.pathname.endsWith('/store_front/acme')
        ? store
        : url.pathname.endsWith('/products')
          ? { data: [product('7')], meta: { total: 1, page: 1, perPage: 500 } }
          : url.pathname.endsWith('/products/7')
            ? { data: product('7') }
            : { data: [], meta: { total: 0, page: 1, perPage: 500 } };
      return Response.json(body);
    }),
  };

  const pages = await Array.fromAsync(snapshotPages(api, ['acme']));
  expect(pages.map((page) => page.path)).toContain('/acme/product/7');
  // The store's policy pages are prerendered too.
  expect(pages.map((page) => page.path)).toContain('/acme/policies/returns');
  // And its collections' first pages.
  expect(pages.map((page) => page.path)).toContain('/acme/collections/home');
  await pages.find((page) => page.path === '/acme/product/7')!.payload();

  expect(asked).toContain('/api/store_front/acme/products');
  expect(asked).toContain('/api/store_front/acme/products/7');
  expect(global).not.toHaveBeenCalled();
});
