/**
 * The console's collections and bundles, in Chromium at a phone's width
 * (docs/decisions/206-console-collections-and-bundles.md): an editor creates a collection, adds two
 * products with the picker and reorders them, which the storefront's collection listing shows at once;
 * makes a bundle and edits an item's quantity, which the storefront's bundle items show; bad input is
 * explained next to its field; every page passes axe and fits 390 px. What the spec made it deletes, so
 * the specs after it meet the demo catalog.
 */
import { expect, test, type Page } from '@playwright/test';
import { editorOf, expectFitsWidth, expectNoAxeViolations, signedIn } from './fixtures/console-session.ts';
import { DESKTOP, PHONE } from './fixtures/viewports.ts';

const OWNER = 'owner@acme.example';
const STORE_TITLE = 'Acme Supply Co.';

/** The page passes axe and has no sideways scrolling at the phone's width. */
async function expectPhoneReady(page: Page) {
  await expectFitsWidth(page, PHONE.width);
  await expectNoAxeViolations(page);
}

/** The names of a storefront listing answer, in its order. */
async function listed(page: Page, path: string): Promise<string[]> {
  const answer = await page.request.get(path);
  expect(answer.status()).toBe(200);
  const body = (await answer.json()) as { data: { attributes: { name: string } }[] };
  return body.data.map((entry) => entry.attributes.name);
}

test('an editor on a phone builds a collection of two products and a bundle, and the storefront shows both at once', async ({
  browser,
  baseURL,
}) => {
  // Two browsers, eight pages and seven axe runs on a busy two-core machine.
  test.setTimeout(240_000);
  const owner = await signedIn(browser, baseURL!, OWNER, DESKTOP);
  const editor = await signedIn(browser, baseURL!, await editorOf(owner, baseURL!), PHONE);
  await owner.context().close();

  await editor.getByRole('link', { name: `Collections of ${STORE_TITLE}` }).click();
  await expect(editor.getByRole('heading', { level: 1, name: `Collections of ${STORE_TITLE}` })).toBeVisible();
  await expect(editor.getByRole('list', { name: 'Collections' })).toContainText('Footwear');
  await expectPhoneReady(editor);

  // A handle the API refuses is explained next to its field.
  const handle = `gift-ideas-${Date.now()}`;
  await editor.getByRole('textbox', { name: 'Title', exact: true }).fill('Gift ideas');
  await editor.getByRole('textbox', { name: 'Handle', exact: true }).fill('Gift Ideas');
  await editor.getByRole('button', { name: 'Create collection' }).click();
  await expect(editor.getByRole('textbox', { name: 'Handle', exact: true })).toHaveAccessibleDescription(
    /^Handle must be lower-case letters/,
  );
  await editor.getByRole('textbox', { name: 'Handle', exact: true }).fill(handle);
  await editor.getByRole('button', { name: 'Create collection' }).click();
  await expect(editor.getByRole('heading', { level: 1, name: 'Gift ideas' })).toBeVisible();
  expect(await listed(editor, `/api/store_front/acme/collections/${handle}/listings`)).toEqual([]);

  const find = editor.getByRole('search', { name: 'Find products and bundles' });
  for (const [typed, name] of [
    ['mug', 'Stoneware Mug'],
    ['CANDLE', 'Cedar Soy Candle'],
  ]) {
    await find.getByRole('searchbox').fill(typed!);
    await find.getByRole('button', { name: 'Find' }).click();
    await editor.getByRole('button', { name: `Add ${name}` }).click();
    await expect(editor.getByRole('status').filter({ hasText: `${name} is in the collection.` })).toBeVisible();
  }
  const members = editor.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(2);
  expect(await listed(editor, `/api/store_front/acme/collections/${handle}/listings`)).toEqual([
    'Stoneware Mug',
    'Cedar Soy Candle',
  ]);
  await editor.getByRole('button', { name: 'Move Cedar Soy Candle up' }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'moved to place 1.' })).toBeVisible();
  expect(await listed(editor, `/api/store_front/acme/collections/${handle}/listings`)).toEqual([
    'Cedar Soy Candle',
    'Stoneware Mug',
  ]);
  await expectPhoneReady(editor);

  // A bundle of two variants, then one item's quantity edited.
  await editor.goto('/admin/acme/bundles');
  await expect(editor.getByRole('heading', { level: 1, name: `Bundles of ${STORE_TITLE}` })).toBeVisible();
  await expect(editor.getByRole('list', { name: 'Bundles' })).toContainText('Desk Setup Bundle');
  await expectPhoneReady(editor);
  await editor.getByRole('link', { name: 'New bundle' }).click();
  await expect(editor.getByRole('heading', { level: 1, name: 'New bundle' })).toBeVisible();
  await editor.getByRole('textbox', { name: 'Name', exact: true }).fill('Evening In Kit');
  const variants = editor.getByRole('search', { name: 'Find variants by product name or SKU' });
  for (const sku of ['CERAMIC-MUG', 'CANDLE']) {
    await variants.getByRole('searchbox').fill(sku);
    await variants.getByRole('button', { name: 'Find' }).click();
    await editor.getByRole('button', { name: `Add ${sku}`, exact: true }).click();
  }
  await expect(editor.getByRole('list', { name: 'Items' }).getByRole('listitem')).toHaveCount(2);
  await editor.getByRole('button', { name: 'Create bundle' }).click();
  await expect(editor.getByRole('heading', { level: 1, name: 'Evening In Kit' })).toBeVisible();
  const bundleId = new URL(editor.url()).pathname.split('/').pop()!;

  const quantity = editor.getByLabel('Quantity of CERAMIC-MUG');
  await quantity.fill('0');
  await editor.getByRole('button', { name: 'Save bundle' }).click();
  await expect(quantity).toHaveAccessibleDescription('Quantity must be a whole number from 1 to 99.');
  await quantity.fill('3');
  await editor.getByRole('button', { name: 'Save bundle' }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(editor.getByLabel('Quantity of CERAMIC-MUG')).toHaveValue('3');
  const items = await editor.request.get(`/api/store_front/acme/bundles/${bundleId}/bundle_items`);
  const body = (await items.json()) as { data: { attributes: { product_name: string; quantity: number } }[] };
  expect(body.data.map((item) => `${item.attributes.quantity} ${item.attributes.product_name}`)).toEqual([
    '3 Stoneware Mug',
    '1 Cedar Soy Candle',
  ]);
  await expectPhoneReady(editor);

  // What the spec made goes again, through the pages' own delete buttons.
  await editor.getByRole('button', { name: 'Delete this bundle' }).click();
  await editor.getByRole('button', { name: 'Yes, delete it' }).click();
  await expect(editor.getByRole('heading', { level: 1, name: `Bundles of ${STORE_TITLE}` })).toBeVisible();
  expect((await editor.request.get(`/api/store_front/acme/bundles/${bundleId}`)).status()).toBe(404);
  await editor.goto('/admin/acme/collections');
  await editor.getByRole('list', { name: 'Collections' }).getByRole('link', { name: 'Gift ideas' }).click();
  await editor.getByRole('button', { name: 'Delete this collection' }).click();
  await editor.getByRole('button', { name: 'Yes, delete it' }).click();
  await expect(editor.getByRole('heading', { level: 1, name: `Collections of ${STORE_TITLE}` })).toBeVisible();
  expect((await editor.request.get(`/api/store_front/acme/collections/${handle}`)).status()).toBe(404);
  await editor.context().close();
});
