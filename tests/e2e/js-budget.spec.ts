/**
 * The script budgets of `npm run bench` (docs/decisions/060-benchmarks-and-budgets.md) as a test, so CI
 * refuses a change that breaks one: bytes, measured as the bench measures them (gzip -9 of every script
 * Chromium loaded plus the inline ones), not time.
 */
import { expect, test } from '@playwright/test';
import { measureJs } from '../../scripts/bench/js-weight.ts';
import { CartApi, SLUG } from './fixtures/cart-page.ts';

const KB = 1024;

test('the store front, shop and a collection load at most 5 KB of script (gzip), a product and a bundle page at most 12 KB', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const client = new CartApi(page.request, page.context(), baseURL!);
  const { variant } = await client.firstVariant();
  await client.addVariant(variant.id, 1);
  const bundle = await client.firstBundle();
  const cartToken = (await page.context().cookies()).find((cookie) => cookie.name === 'recipient-token')?.value ?? '';
  const pages = await measureJs(
    baseURL!,
    {
      'store front': `/${SLUG}`,
      shop: `/${SLUG}/shop`,
      collection: `/${SLUG}/collections/home`,
      product: `/${SLUG}/product/1`,
      bundle: `/${SLUG}/product-bundle/${bundle.id}`,
    },
    { cartToken },
  );
  const gzip = Object.fromEntries(pages.map((measured) => [measured.page, measured.total.gzip]));
  expect(pages.flatMap((measured) => measured.failedScripts ?? [])).toEqual([]);
  expect(gzip['store front']).toBeLessThanOrEqual(5 * KB);
  expect(gzip.shop).toBeLessThanOrEqual(5 * KB);
  expect(gzip.collection).toBeLessThanOrEqual(5 * KB);
  // No React on these pages: their add to cart is plain TypeScript (docs/decisions/194-product-pages-without-react.md).
  expect(gzip.product).toBeLessThanOrEqual(12 * KB);
  expect(gzip.bundle).toBeLessThanOrEqual(12 * KB);
});
