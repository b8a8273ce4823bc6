/**
 * The console's catalog and gift cards, in Chromium (docs/decisions/199-console-catalog-and-gift-cards.md):
 * an editor changes a product's price and stock, which its product page shows once it refreshes; issues a
 * gift card, whose code a shopper then applies; and every console page passes axe and fits a phone, the
 * staff page included (its title, and no role changes offered on the only owner).
 */
import { expect, test } from '@playwright/test';
import { CartApi, CartPage } from './fixtures/cart-page.ts';
import { editorOf, expectFitsWidth, expectNoAxeViolations, signedIn } from './fixtures/console-session.ts';
import { DESKTOP, PHONE } from './fixtures/viewports.ts';

const OWNER = 'owner@acme.example';
const STORE_TITLE = 'Acme Supply Co.';
const PRODUCT = 'Speed Jump Rope';

test('an editor changes a price and the stock, and the product page shows them; a gift card they issue applies in a cart', async ({
  browser,
  baseURL,
}) => {
  // Three browsers, a dozen pages and six axe runs on a busy two-core machine.
  test.setTimeout(240_000);
  const owner = await signedIn(browser, baseURL!, OWNER, DESKTOP);
  const editorEmail = await editorOf(owner, baseURL!);
  const editor = await signedIn(browser, baseURL!, editorEmail, DESKTOP);

  await editor.getByRole('link', { name: `Products of ${STORE_TITLE}` }).click();
  await expect(editor.getByRole('heading', { level: 1, name: `Products of ${STORE_TITLE}` })).toBeVisible();
  await expectNoAxeViolations(editor);
  await editor.getByLabel('Search by name or SKU').fill('jump rope');
  await editor.getByRole('button', { name: 'Search' }).click();
  const products = editor.getByRole('list', { name: 'Products' });
  await expect(products.getByRole('listitem')).toHaveCount(1);
  await products.getByRole('link', { name: PRODUCT }).click();
  await expect(editor.getByRole('heading', { level: 1, name: PRODUCT })).toBeVisible();
  const productId = new URL(editor.url()).pathname.split('/').pop()!;

  // A price the API refuses is explained next to its field.
  const price = editor.getByLabel(/^Price of /);
  await price.fill('12.345');
  await editor.getByRole('button', { name: 'Save product' }).click();
  await expect(price).toHaveAccessibleDescription('Price must be an amount like 12.50, from 0.00 to 999999.99.');
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await price.fill('17.25');
  await editor.getByRole('button', { name: 'Save product' }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  const stockText = await editor.getByRole('table', { name: 'Stock by variant' }).getByRole('cell').last().innerText();
  const adjust = editor.getByRole('form', { name: 'Adjust stock' });
  await adjust.getByLabel('Change (e.g. 5 or -2)').fill(String(3 - Number(stockText)));
  await adjust.getByLabel('Reason').selectOption('correction');
  await adjust.getByLabel('Note').fill('Counted the shelf');
  await adjust.getByRole('button', { name: 'Adjust stock' }).click();
  await expect(editor.getByRole('status').filter({ hasText: /is now 3\.$/ })).toBeVisible();
  await expect(editor.getByRole('list', { name: 'Stock log' })).toContainText('Counted the shelf');
  await expectNoAxeViolations(editor);

  // A shopper opens the product page: its add to cart refreshes price and stock from the API on view.
  const shopperContext = await browser.newContext({ viewport: DESKTOP });
  const shopper = await shopperContext.newPage();
  await shopper.goto(`/acme/product/${productId}`);
  const buy = shopper.locator('.add-to-cart[data-fresh]');
  await expect(buy).toBeVisible();
  await expect(shopper.locator('.add-to-cart__price')).toContainText('$17.25');
  await expect(buy.getByText('Only 3 left', { exact: true })).toBeVisible();

  // The editor issues a gift card: its code is shown once, masked in the list.
  await editor.goto('/admin/acme/gift-cards');
  await expect(editor.getByRole('heading', { level: 1, name: `Gift cards of ${STORE_TITLE}` })).toBeVisible();
  await editor.getByRole('button', { name: 'Issue gift card' }).click();
  // The API's message is the field's own description.
  await expect(editor.getByLabel('Amount in dollars')).toHaveAccessibleDescription(
    'Amount must be an amount like 25.00, from 0.01 to 10000.00.',
  );
  await editor.getByLabel('Amount in dollars').fill('15');
  await editor.getByLabel('Note (who it is for, why)').fill('Raffle prize');
  await editor.getByRole('button', { name: 'Issue gift card' }).click();
  const code = await editor.getByTestId('issued-code').innerText();
  expect(code).toMatch(/^[A-Z2-7]{16}$/);
  const cards = editor.getByRole('list', { name: 'Gift cards' });
  await expect(cards).toContainText(code.slice(-4));
  await expect(cards).not.toContainText(code);
  await cards.getByRole('button', { name: new RegExp(`^Ledger of .*${code.slice(-4)}$`) }).click();
  await expect(editor.getByRole('list', { name: 'Ledger' })).toContainText('Raffle prize');
  await expectNoAxeViolations(editor);

  // The shopper applies it to their cart.
  await new CartApi(shopper.request, shopperContext, baseURL!).seedProductAndBundle();
  const cart = new CartPage(shopper);
  await cart.goto();
  await cart.applyGiftCard(code);
  await expect(shopper.getByRole('list', { name: 'Applied gift cards' })).toContainText('$15.00');

  await shopperContext.close();
  await editor.context().close();
  await owner.context().close();
});

test('the console’s catalog, gift card and staff pages fit a phone and pass axe; the only owner is offered no role change', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const page = await signedIn(browser, baseURL!, OWNER, PHONE);
  await expectFitsWidth(page, PHONE.width);

  await page.goto('/admin/acme/products');
  await expect(page.getByRole('heading', { level: 1, name: `Products of ${STORE_TITLE}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Products' }).getByRole('listitem').first()).toBeVisible();
  await expectFitsWidth(page, PHONE.width);
  await expectNoAxeViolations(page);

  await page.getByRole('list', { name: 'Products' }).getByRole('link', { name: 'Classic Cotton Tee' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Classic Cotton Tee' })).toBeVisible();
  await expectFitsWidth(page, PHONE.width);
  await expectNoAxeViolations(page);

  await page.goto('/admin/acme/gift-cards');
  await expect(page.getByRole('heading', { level: 1, name: `Gift cards of ${STORE_TITLE}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Gift cards' })).toBeVisible();
  await expectFitsWidth(page, PHONE.width);
  await expectNoAxeViolations(page);

  await page.goto('/admin/acme/staff');
  await expect(page.getByRole('heading', { level: 1, name: `Staff of ${STORE_TITLE}` })).toBeVisible();
  await expect(page.getByText(`${OWNER} (you) — Owner`)).toBeVisible();
  await expect(page.getByRole('button', { name: `Make editor: ${OWNER}` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Remove: ${OWNER}` })).toHaveCount(0);
  const email = page.getByLabel('Email');
  const box = (await email.boundingBox())!;
  const select = (await page.getByLabel('Role').boundingBox())!;
  // The invite form's fields keep the page's side margin instead of running to the edge.
  expect(box.x + box.width).toBeLessThan(PHONE.width - 8);
  expect(select.x + select.width).toBeLessThan(PHONE.width - 8);
  await expectFitsWidth(page, PHONE.width);
  await expectNoAxeViolations(page);
  await page.context().close();
});
