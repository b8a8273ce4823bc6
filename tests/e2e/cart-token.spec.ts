/**
 * A browser holding a cart cookie the API did not issue (forged, or from before cart tokens were
 * signed) still shops: the API refuses the token with 401, the client drops the cookie, asks again
 * without one and keeps the token the API issues (docs/decisions/111).
 */
import { expect, test } from '@playwright/test';
import { CartPage, SLUG } from './fixtures/cart-page.ts';

test('with a forged cart cookie, adding to the cart works and the cookie becomes one the API issued', async ({
  page,
  context,
  baseURL,
}) => {
  const forged = 'A'.repeat(32);
  await context.addCookies([{ name: 'recipient-token', value: forged, url: baseURL! }]);
  const refusals: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() === 401) refusals.push(response.status());
  });

  await page.goto(`/${SLUG}/shop`);
  await page
    .getByRole('list', { name: 'Products and bundles' })
    .getByRole('link', { name: /Classic Cotton Tee/ })
    .click();
  await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
  await page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: 'XL', exact: true }).check();
  await page.getByRole('group', { name: 'Color' }).getByRole('radio', { name: 'Navy', exact: true }).check();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('link', { name: 'Checkout' })).toBeVisible();

  const cookie = (await context.cookies()).find((c) => c.name === 'recipient-token');
  expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{54}$/);
  expect(cookie?.value).not.toBe(forged);
  expect(refusals.length).toBeGreaterThan(0);

  const cart = new CartPage(page);
  await cart.goto();
  await expect(cart.entries).toHaveCount(1);
  await expect(cart.entries.first()).toContainText('Classic Cotton Tee');
});
