/**
 * Variant images and structured data (docs/decisions/193-variant-images.md): choosing a colour leads the
 * gallery with that colour's images, `?variant=` renders it so from the server, public pages describe
 * their product offers and listings to search engines, a restricted store's pages say nothing.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { VIEWPORTS } from './fixtures/viewports.ts';
import { layoutShifts } from './fixtures/layout-shift.ts';

const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';

const mainImage = (page: Page) => page.locator('.gallery__stage img:visible');

async function structuredData(page: Page): Promise<Record<string, unknown>[]> {
  return page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? '') as Record<string, unknown>));
}

/** The thumbnail shown first: the topmost, then leftmost. */
async function firstThumbAlt(page: Page): Promise<string> {
  const thumbs = page.locator('.gallery__thumb');
  const boxes = await thumbs.evaluateAll((labels) =>
    labels.map((label) => {
      const box = label.getBoundingClientRect();
      return { y: box.y, x: box.x, checked: label.querySelector('input')!.checked };
    }),
  );
  const first = boxes.reduce((a, b) => (b.y < a.y || (b.y === a.y && b.x < a.x) ? b : a));
  expect(first.checked).toBe(true);
  return (await mainImage(page).getAttribute('alt')) ?? '';
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`choosing Navy shows the Navy tee first, and a reload keeps it (${name})`, async ({ page, browser }) => {
    await page.setViewportSize(viewport);
    await page.goto('/acme/product/1');
    await expect(page.getByRole('heading', { level: 1, name: 'Classic Cotton Tee' })).toBeVisible();
    await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
    await expect(mainImage(page)).toHaveAttribute('alt', /in Red, view 1$/);
    const colour = page.getByRole('group', { name: 'Color' });
    await page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: 'M', exact: true }).check();
    await colour.getByRole('radio', { name: 'Red', exact: true }).check();
    // Another image looked at first: the colour's choice brings its own first image back.
    await page.locator('.gallery__thumb').nth(2).click();
    await expect(mainImage(page)).toHaveAttribute('alt', /in Red, view 3$/);

    await colour.getByRole('radio', { name: 'Navy', exact: true }).check();
    await expect(mainImage(page)).toHaveAttribute('alt', /in Navy, view 1$/);
    expect(await firstThumbAlt(page)).toMatch(/in Navy, view 1$/);
    await expect(page).toHaveURL(/[?&]variant=\d+/);
    const shared = page.url();

    await page.reload();
    await expect(mainImage(page)).toHaveAttribute('alt', /in Navy, view 1$/);
    await expect(page.getByRole('group', { name: 'Color' }).getByRole('radio', { name: 'Navy' })).toBeChecked();
    await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
    // Nothing moved while the page loaded and hydrated with the variant named.
    expect(await layoutShifts(page)).toEqual([]);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => `${v.id} (${v.impact})`)).toEqual([]);

    // Rendered so by the server: without any script the Navy tee is first, and its thumbnail leads.
    const context = await browser.newContext({ javaScriptEnabled: false, viewport });
    const bare = await context.newPage();
    await bare.goto(shared);
    await expect(mainImage(bare)).toHaveAttribute('alt', /in Navy, view 1$/);
    expect(await firstThumbAlt(bare)).toMatch(/in Navy, view 1$/);
    await context.close();
  });
}

test('a public product page has one Offer per variant, with its SKU, availability and address', async ({ page }) => {
  await page.goto('/acme/product/1');
  const product = (await structuredData(page)).find((data) => data['@type'] === 'Product') as {
    offers: { sku: string; price: string; priceCurrency: string; availability: string; url: string }[];
  };
  expect(product.offers).toHaveLength(8);
  const bySku = Object.fromEntries(product.offers.map((offer) => [offer.sku, offer]));
  expect(bySku['TEE-S-RED']).toMatchObject({ price: '20.00', availability: 'https://schema.org/OutOfStock' });
  expect(bySku['TEE-XL-NAVY']).toMatchObject({
    price: '22.00',
    priceCurrency: 'USD',
    availability: 'https://schema.org/InStock',
  });
  for (const offer of product.offers)
    expect(offer.url).toMatch(/^http:\/\/shop\.acme\.test:\d+\/product\/1\?variant=\d+$/);
  // Each offer's address shows its own variant.
  const navy = new URL(bySku['TEE-M-NAVY']!.url);
  await page.goto(`/acme/product/1${navy.search}`);
  await expect(page.getByRole('group', { name: 'Color' }).getByRole('radio', { name: 'Navy' })).toBeChecked();
});

test('the shop, a collection and the store front list their items for search engines, in order', async ({ page }) => {
  for (const [path, label] of [
    ['/acme/shop', 'Products and bundles'],
    ['/acme/collections/apparel', 'Products and bundles'],
    ['/acme', 'Featured products'],
  ] as const) {
    await page.goto(path);
    const list = (await structuredData(page)).find((data) => data['@type'] === 'ItemList') as {
      itemListElement: { position: number; name: string; url: string }[];
    };
    const shown = await page.getByRole('list', { name: label }).locator('.card__name').allTextContents();
    const names = list.itemListElement.map((item) => item.name);
    expect(names.slice(0, shown.length)).toEqual(shown.map((text) => text.trim()));
    expect(list.itemListElement.map((item) => item.position)).toEqual(names.map((_, i) => i + 1));
    for (const item of list.itemListElement) {
      expect(item.url).toMatch(/^http:\/\/shop\.acme\.test:\d+\/(product|product-bundle)\/\d+$/);
    }
  }
});

test('a restricted store’s product page and listings carry no structured data', async ({ page }) => {
  await page.goto(`/vip?uuid=${VIP_UUID}`);
  await expect(page).toHaveURL(/\/vip$/);
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
  await page.goto('/vip/shop');
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
  await page.getByRole('list', { name: 'Products and bundles' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('meta[name="robots"]').first()).toHaveAttribute('content', /noindex/);
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
});
