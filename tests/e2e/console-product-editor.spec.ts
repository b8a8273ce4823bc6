/**
 * The console's product editor on a phone, in Chromium (docs/decisions/207-product-editor.md): an editor
 * formats the description in bold with a list from the rich-text toolbar, and the storefront's product API
 * answers it sanitised; adds a variant with a new Size, which a shopper can then put in a cart; removes a
 * product a cart holds (archived) and puts it back on sale; and the page passes axe and fits 390 px, its
 * stock table included.
 */
import { expect, test } from '@playwright/test';
import { CartApi } from './fixtures/cart-page.ts';
import { editorOf, expectFitsWidth, expectNoAxeViolations, signedIn } from './fixtures/console-session.ts';
import { DESKTOP, PHONE } from './fixtures/viewports.ts';

const OWNER = 'owner@acme.example';
const PRODUCT = 'Classic Cotton Tee';

test('an editor formats the description and adds a variant with a new Size, which a shopper can order', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const owner = await signedIn(browser, baseURL!, OWNER, DESKTOP);
  const editor = await signedIn(browser, baseURL!, await editorOf(owner, baseURL!), PHONE);

  await editor.goto('/admin/acme/products');
  await editor.getByLabel('Search by name or SKU').fill('cotton tee');
  await editor.getByRole('button', { name: 'Search' }).click();
  await editor.getByRole('list', { name: 'Products' }).getByRole('link', { name: PRODUCT }).click();
  await expect(editor.getByRole('heading', { level: 1, name: PRODUCT })).toBeVisible();
  const productId = new URL(editor.url()).pathname.split('/').pop()!;
  const consoleUrl = `/api/admin/stores/acme/products/${productId}`;
  type Product = {
    version: number;
    name: string;
    description_html: string;
    featured: boolean;
    position: number;
    variants: { id: string; sku: string; price: string }[];
  };
  const consoleProduct = async () => ((await (await editor.request.get(consoleUrl)).json()) as { data: Product }).data;
  const original = await consoleProduct();

  // The description, from the toolbar: one tab stop whose buttons say whether they are on.
  const description = editor.getByRole('textbox', { name: 'Description' });
  const toolbar = editor.getByRole('toolbar', { name: 'Description formatting' });
  const bold = toolbar.getByRole('button', { name: 'Bold' });
  await description.click();
  await editor.keyboard.press('ControlOrMeta+a');
  await editor.keyboard.type('Made of ');
  await bold.click();
  await expect(bold).toHaveAttribute('aria-pressed', 'true');
  await editor.keyboard.type('organic cotton');
  await bold.click();
  await expect(bold).toHaveAttribute('aria-pressed', 'false');
  await editor.keyboard.press('Enter');
  await toolbar.getByRole('button', { name: 'Bulleted list' }).click();
  await expect(toolbar.getByRole('button', { name: 'Bulleted list' })).toHaveAttribute('aria-pressed', 'true');
  await editor.keyboard.type('Machine wash cold');
  await editor.keyboard.press('Enter');
  await editor.keyboard.type('Tumble dry low');
  await editor.getByRole('button', { name: 'Save product' }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  const shown = await editor.request.get(`/api/store_front/acme/products/${productId}`);
  expect(((await shown.json()) as { data: { attributes: { description: string } } }).data.attributes.description).toBe(
    '<p>Made of <strong>organic cotton</strong></p><ul><li><p>Machine wash cold</p></li><li><p>Tumble dry low</p></li></ul>',
  );

  // A variant with a new Size: a value the API refuses is explained next to its field first.
  const newVariant = editor.getByRole('form', { name: 'New variant' });
  await newVariant.getByLabel('SKU of the new variant').fill('TEE-XXL-RED');
  await newVariant.getByLabel('Name of the new variant').fill('XXL / Red');
  await newVariant.getByLabel('Size of the new variant').fill('S');
  await newVariant.getByLabel('Color of the new variant').fill('Red');
  await newVariant.getByLabel('Price for the new variant, $').fill('24.00');
  await newVariant.getByLabel('Starting stock').fill('5');
  await newVariant.getByRole('button', { name: 'Add variant' }).click();
  await expect(newVariant.getByLabel('Size of the new variant')).toHaveAccessibleDescription(
    'TEE-S-RED has the same option values: each variant needs its own combination.',
  );
  await newVariant.getByLabel('Size of the new variant').fill('XXL');
  await newVariant.getByRole('button', { name: 'Add variant' }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'Variant TEE-XXL-RED added' })).toBeVisible();

  // The stock table stays a table on the phone, the new variant in it.
  const stock = editor.getByRole('table', { name: 'Stock by variant' });
  await expect(stock.getByRole('row', { name: /TEE-XXL-RED/ })).toContainText('5');
  await expectFitsWidth(editor, PHONE.width);
  await expectNoAxeViolations(editor);

  // A shopper orders it through the storefront's API.
  const shopperContext = await browser.newContext({ viewport: DESKTOP });
  const shopper = new CartApi(shopperContext.request, shopperContext, baseURL!);
  const variant = await shopper.variantNamed(PRODUCT, 'XXL / Red');
  expect(variant.attributes).toMatchObject({ sku: 'TEE-XXL-RED', price: '24.00', stock: 5 });
  const cart = await shopper.addVariant(variant.id, 2);
  expect(cart.cartItems.map((item) => item.product_details.product_variant_id)).toContain(variant.id);
  await shopperContext.close();

  // Removed from the page now, it goes off sale (the shopper's cart names it) and can be put back, stock 0.
  editor.once('dialog', (dialog) => void dialog.accept());
  await editor.getByRole('button', { name: 'Remove TEE-XXL-RED' }).click();
  await expect(
    editor.getByText('TEE-XXL-RED is off sale: orders or carts name it, so it is kept for them.'),
  ).toBeVisible();
  await expect(stock.getByRole('row', { name: /TEE-XXL-RED/ })).toHaveCount(0);
  await editor.getByRole('button', { name: 'Put TEE-XXL-RED back on sale' }).click();
  await expect(
    editor.getByText('TEE-XXL-RED is on sale again, with no stock: adjust its stock to sell it.'),
  ).toBeVisible();
  await expect(stock.getByRole('row', { name: /TEE-XXL-RED/ })).toContainText('0');
  await expect(editor.getByRole('button', { name: 'Put TEE-XXL-RED back on sale' })).toHaveCount(0);

  // The demo catalog back as the other specs know it: the new variant off sale, the description as it was.
  const me = (await (await editor.request.get('/api/admin/me')).json()) as { csrf_token: string };
  const headers = { origin: baseURL!, 'x-csrf-token': me.csrf_token };
  const added = await consoleProduct();
  const xxl = added.variants.find((v) => v.sku === 'TEE-XXL-RED')!;
  expect(
    (await editor.request.delete(`${consoleUrl}/variants/${xxl.id}?version=${added.version}`, { headers })).ok(),
  ).toBe(true);
  const { version, variants } = await consoleProduct();
  const restored = await editor.request.patch(consoleUrl, {
    headers,
    data: {
      version,
      name: original.name,
      description_html: original.description_html,
      featured: original.featured,
      position: original.position,
      variants: variants.map((v) => ({ id: v.id, price: v.price })),
    },
  });
  expect(restored.ok(), await restored.text()).toBe(true);
  expect((await consoleProduct()).variants.map((v) => v.sku)).toEqual(original.variants.map((v) => v.sku));
});

test('an editor creates a product with its first variant, then removes it', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const owner = await signedIn(browser, baseURL!, OWNER, DESKTOP);
  const editor = await signedIn(browser, baseURL!, await editorOf(owner, baseURL!), PHONE);

  await editor.goto('/admin/acme/products');
  await editor.getByRole('link', { name: 'New product' }).click();
  await expect(editor.getByRole('heading', { level: 1, name: /^New product in / })).toBeVisible();
  const form = editor.getByRole('form', { name: 'New product' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Waxed Canvas Apron');
  await form.getByLabel('Options').fill('Size');
  await form.getByLabel('SKU').fill('APRON-ONE');
  await form.getByLabel('Variant name').fill('One size');
  await form.getByLabel('Size', { exact: true }).fill('One size');
  await form.getByLabel('Price, $').fill('32.00');
  await expectFitsWidth(editor, PHONE.width);
  await expectNoAxeViolations(editor);
  await form.getByRole('button', { name: 'Create product' }).click();
  await expect(editor.getByRole('heading', { level: 1, name: 'Waxed Canvas Apron' })).toBeVisible();

  editor.once('dialog', (dialog) => void dialog.accept());
  await editor.getByRole('button', { name: 'Remove product' }).click();
  await expect(editor.getByRole('heading', { level: 1, name: /^Products of / })).toBeVisible();
  await editor.getByLabel('Search by name or SKU').fill('canvas apron');
  await editor.getByRole('button', { name: 'Search' }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'No products match' })).toBeVisible();
});

test('a product a cart holds is archived instead, put back on sale from its page, and archived again', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await signedIn(browser, baseURL!, OWNER, DESKTOP);
  const editor = await signedIn(browser, baseURL!, await editorOf(owner, baseURL!), PHONE);
  const me = (await (await editor.request.get('/api/admin/me')).json()) as { csrf_token: string };
  const created = await editor.request.post('/api/admin/stores/acme/products', {
    headers: { origin: baseURL!, 'x-csrf-token': me.csrf_token },
    data: {
      name: 'Enamel Camp Mug',
      description_html: '<p>Holds a pint.</p>',
      option_names: ['Size'],
      variant: { sku: 'MUG-PINT', name: 'Pint', options: { Size: 'Pint' }, price: '14.00', stock: 3 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { data: mug } = (await created.json()) as { data: { id: string; variants: { id: string }[] } };

  // A shopper's cart holds it, so removing it archives it: hidden from the shop, kept for the cart.
  const shopperContext = await browser.newContext({ viewport: DESKTOP });
  const shopper = new CartApi(shopperContext.request, shopperContext, baseURL!);
  await shopper.addVariant(mug.variants[0]!.id, 1);
  const productApi = `/api/store_front/acme/products/${mug.id}`;

  await editor.goto(`/admin/acme/products/${mug.id}`);
  editor.once('dialog', (dialog) => void dialog.accept());
  await editor.getByRole('button', { name: 'Remove product' }).click();
  const archived = editor.getByRole('region', { name: 'Archived' });
  await expect(archived).toBeVisible();
  expect((await shopperContext.request.get(productApi)).status()).toBe(404);
  await expectNoAxeViolations(editor);
  await expectFitsWidth(editor, PHONE.width);

  await archived.getByRole('button', { name: 'Put back on sale' }).click();
  await expect(editor.getByText('Back on sale. Publish to show it on the storefront’s pages.')).toBeVisible();
  await expect(archived).toBeHidden();
  expect((await shopperContext.request.get(productApi)).status()).toBe(200);

  // Archived again, so the demo store's shop is as the other specs know it.
  editor.once('dialog', (dialog) => void dialog.accept());
  await editor.getByRole('button', { name: 'Remove product' }).click();
  await expect(archived).toBeVisible();
  expect((await shopperContext.request.get(productApi)).status()).toBe(404);
  await shopperContext.close();
});
