/**
 * Product images in the console, in Chromium (docs/decisions/201-console-product-images.md): an editor
 * drops an image on the product page, sees it flagged until it has alt text, describes it, makes it the
 * default and moves it with the keyboard; after the next rebuild the shopper's product page leads with it.
 * The page passes axe and fits a phone.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { editorOf, expectFitsWidth, expectNoAxeViolations, signedIn } from './fixtures/console-session.ts';
import { publishWithToken } from './fixtures/publish.ts';
import { DESKTOP, PHONE } from './fixtures/viewports.ts';

const OWNER = 'owner@acme.example';
const PRODUCT = 'Felt Laptop Sleeve';
const ALT = 'The grey felt sleeve, open, with a laptop half inside';
const port = Number(process.env.E2E_PORT ?? 4399);
const buildsDir = path.resolve(process.env.BUILDS_DIR ?? `.data-e2e-${port}-builds`);

/** Drops a file on the drop zone as a browser does: a `drop` event whose DataTransfer holds it. */
async function dropFile(page: Page, file: { bytes: Buffer; name: string; type: string }) {
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type }));
      return transfer;
    },
    { base64: file.bytes.toString('base64'), name: file.name, type: file.type },
  );
  const zone = page.getByTestId('image-drop-zone');
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}

/** The product's console page, opened from the product list. */
async function openProduct(page: Page): Promise<string> {
  await page.goto('/admin/acme/products');
  await page.getByLabel('Search by name or SKU').fill(PRODUCT);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('list', { name: 'Products' }).getByRole('link', { name: PRODUCT }).click();
  await expect(page.getByRole('heading', { level: 1, name: PRODUCT })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Images' })).toBeVisible();
  return new URL(page.url()).pathname.split('/').pop()!;
}

test('an editor drops an image, describes it and makes it the default; the product page leads with it after the rebuild', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const owner = await signedIn(browser, baseURL!, OWNER, DESKTOP);
  const editor = await signedIn(browser, baseURL!, await editorOf(owner, baseURL!), DESKTOP);
  const productId = await openProduct(editor);
  const gallery = editor.getByRole('list', { name: 'Images, in gallery order' });
  // The demo product has images of its own: the new one lands after them.
  await expect(gallery.getByRole('listitem').first()).toBeVisible();
  const before = await gallery.getByRole('listitem').count();

  // A text file is refused by what it is, whatever its name says.
  await dropFile(editor, { bytes: Buffer.from('not a picture'), name: 'notes.png', type: 'image/png' });
  await expect(
    editor.getByRole('alert').filter({ hasText: 'notes.png: This file is not a JPEG, PNG, WebP or AVIF image.' }),
  ).toBeVisible();

  const photo = await sharp({ create: { width: 900, height: 900, channels: 3, background: '#6b7b8c' } })
    .jpeg()
    .toBuffer();
  await dropFile(editor, { bytes: photo, name: 'sleeve.jpg', type: 'image/jpeg' });
  await expect(editor.getByText('sleeve.jpg uploaded. Add its alt text below.')).toBeVisible();
  await expect(gallery.getByRole('listitem')).toHaveCount(before + 1);
  const n = before + 1;
  const item = gallery.getByRole('listitem', { name: `Image ${n}` });
  await expect(item.getByText('Alt text missing')).toBeVisible();
  await expectNoAxeViolations(editor);

  await item.getByLabel(`Alt text of image ${n}`).fill(ALT);
  await item.getByRole('button', { name: `Save alt text of image ${n}` }).click();
  await expect(editor.getByText(`Alt text of image ${n} saved.`)).toBeVisible();
  await expect(item.getByText('Alt text missing')).toHaveCount(0);
  await item.getByRole('button', { name: `Make image ${n} the default` }).click();
  await expect(editor.getByText(`Image ${n} is now the default image.`)).toBeVisible();
  await expect(item.getByText('Default image')).toBeVisible();

  // Moved up a place with the keyboard: the focus stays on the image's move buttons.
  const up = item.getByRole('button', { name: `Move image ${n} up` });
  await up.focus();
  await editor.keyboard.press('Enter');
  await expect(editor.getByText(`Image moved to place ${n - 1}.`)).toBeVisible();
  await expect(
    gallery.getByRole('listitem', { name: `Image ${n - 1}` }).getByLabel(`Alt text of image ${n - 1}`),
  ).toHaveValue(ALT);
  await expect(editor.locator(':focus')).toHaveText(/Move image \d+ (up|down)/);
  await expectNoAxeViolations(editor);
  const url = await editor.evaluate(async (id) => {
    const answer = (await (await fetch(`/api/admin/stores/acme/products/${id}/images`)).json()) as {
      data: { url: string; default: boolean }[];
    };
    return answer.data.find((image) => image.default)!.url;
  }, productId);

  // The next rebuild puts it on the product's static page, first.
  await publishWithToken(editor.request, buildsDir);
  const shopper = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await shopper.goto(`/acme/product/${productId}`);
  const main = shopper.locator('.gallery__slide--0 img');
  await expect(main).toHaveAttribute('src', url);
  await expect(main).toHaveAttribute('alt', ALT);
  await expect
    .poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
});

test('the product page’s images section passes axe and fits a phone', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const page = await signedIn(browser, baseURL!, OWNER, PHONE);
  await openProduct(page);
  await expect(page.getByRole('button', { name: 'Choose images to upload' })).toBeVisible();
  const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#a85' } })
    .png()
    .toBuffer();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose images to upload' }).click();
  await (await chooser).setFiles({ name: 'phone.png', mimeType: 'image/png', buffer: photo });
  await expect(page.getByText('phone.png uploaded. Add its alt text below.')).toBeVisible();
  await expect(page.getByText('Alt text missing').first()).toBeVisible();
  await expectNoAxeViolations(page);
  await expectFitsWidth(page, PHONE.width);
});
