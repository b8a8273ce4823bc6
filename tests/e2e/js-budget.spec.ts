/**
 * The script budgets of `npm run bench` (docs/decisions/060-benchmarks-and-budgets.md) as a test, so CI
 * refuses a change that breaks one: bytes, measured as the bench measures them (gzip -9 of every script
 * Chromium loaded plus the inline ones), not time. Checkout's budget holds because its phone and
 * country libraries wait for the form to be used (docs/decisions/195-lighter-checkout.md); the second
 * test keeps them waiting.
 */
import { expect, test } from '@playwright/test';
import { measureJs } from '../../scripts/bench/js-weight.ts';
import { CartApi, CheckoutPage, SLUG } from './fixtures/cart-page.ts';

const KB = 1024;

test('the store front, shop and a collection load at most 5 KB of script (gzip), a product and a bundle page at most 12 KB, checkout at most 110 KB', async ({
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
      checkout: `/${SLUG}/checkout`,
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
  expect(gzip.checkout).toBeLessThanOrEqual(110 * KB);
});

test('checkout loads the phone libraries when the phone field is first used, and the country data when the country select is', async ({
  page,
  baseURL,
}) => {
  const client = new CartApi(page.request, page.context(), baseURL!);
  const { variant } = await client.firstVariant();
  await client.addVariant(variant.id, 1);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  // Chunks are named after their first module: intl-tel-input and libphonenumber-js's metadata, country-region-data.
  const phoneLibraries = /\/(phone-library|validatePhoneNumberLength|iti-utils)\.[\w-]+\.js$/;
  const countryData = /\/data\.[\w-]+\.js$/;
  await new CheckoutPage(page).goto();
  const form = page.getByRole('group', { name: 'Contact and shipping' });
  await expect(form.getByRole('textbox', { name: 'First name' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Card number' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((script) => phoneLibraries.test(script) || countryData.test(script))).toEqual([]);

  const phoneLoaded = page.waitForResponse((response) => /\/phone-library\.[\w-]+\.js$/.test(response.url()));
  await form.getByRole('textbox', { name: 'Phone' }).focus();
  await phoneLoaded;
  expect(scripts.some((script) => countryData.test(script))).toBe(false);

  const countryLoaded = page.waitForResponse((response) => countryData.test(response.url()));
  await form.getByRole('combobox', { name: 'Country', exact: true }).focus();
  await countryLoaded;
});
