/**
 * Collections (docs/decisions/190-collections.md): reached from the header of any store page at desktop
 * and phone size, with the shop's controls; prerendered and in the sitemap for a public store, unprefixed
 * on its own domain; a restricted store's collections neither shown nor listed without access. A product
 * page's breadcrumb and related items come from its collections.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { VIEWPORTS } from './fixtures/viewports.ts';

const port = Number(process.env.E2E_PORT ?? 4399);
const buildsDir = path.resolve(process.env.BUILDS_DIR ?? `.data-e2e-${port}-builds`);
const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';

/** The header's collections disclosure of the current page. */
const collectionsMenu = (page: Page) => page.getByRole('banner').getByRole('group');

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page is wider than the screen').toBeLessThanOrEqual(0);
}

for (const viewport of Object.values(VIEWPORTS)) {
  test(`a product page's header leads to a collection of products and bundles (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/acme/product/1');
    const header = page.getByRole('banner');
    const menu = collectionsMenu(page);
    await expect(header.getByRole('link', { name: 'Home', exact: true })).toBeHidden();
    await header.getByText('Collections', { exact: true }).click();
    await expect(menu.getByRole('link')).toHaveText(['Apparel', 'Footwear', 'Accessories', 'Home', 'Bundles']);
    // The open menu stays on the screen, and the header still fits a phone.
    const box = (await menu.getByRole('list').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await expectNoSidewaysScroll(page);
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

    await menu.getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page).toHaveURL(/\/acme\/collections\/home$/);
    await expect(page).toHaveTitle('Acme Supply Co. - Home');
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
    await expect(page.getByText('For the kitchen, the desk and the sofa.')).toBeVisible();
    const cards = page.getByRole('list', { name: 'Products and bundles' });
    await expect(cards.getByRole('link', { name: /Stoneware Mug/ })).toHaveAttribute('href', /\/acme\/product\/\d+$/);
    await expect(cards.getByRole('link', { name: /Morning Coffee Kit/ })).toHaveAttribute(
      'href',
      /\/acme\/product-bundle\/\d+$/,
    );
    await expect(cards.getByRole('link', { name: /Classic Cotton Tee/ })).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: '9 items' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  });
}

test('the collections menu works from the keyboard', async ({ page }) => {
  await page.goto('/acme');
  const summary = page.getByRole('banner').getByText('Collections', { exact: true });
  await summary.focus();
  await page.keyboard.press('Enter');
  const first = collectionsMenu(page).getByRole('link', { name: 'Apparel' });
  await expect(first).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(first).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/acme\/collections\/apparel$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Apparel' })).toBeVisible();
});

test('a collection lists its items in its own order, and sorts and searches like the shop within them', async ({
  page,
}) => {
  await page.goto('/acme/collections/apparel');
  await expect(page.getByLabel('Sort by')).toHaveValue('');
  await expect(page.getByRole('list', { name: 'Products and bundles' }).getByRole('link')).toHaveText([
    /Classic Cotton Tee/,
    /Trail Hoodie/,
    /Merino Wool Beanie/,
    /Weekend Outdoors Pack/,
  ]);
  await page.goto('/acme/collections/home');
  await page.getByLabel('Sort by').selectOption('-price');
  await expect(page).toHaveURL(/\/acme\/collections\/home\?sort=-price$/);
  const cards = page.getByRole('list', { name: 'Products and bundles' }).getByRole('link');
  await expect(cards.first()).toContainText('Morning Coffee Kit');
  await page.getByLabel('Search products').fill('coffee');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status').filter({ hasText: '3 items matching “coffee”' })).toBeVisible();
});

test("a product page's breadcrumb names its collection, for people and search engines, and related items come from its collections", async ({
  page,
}) => {
  await page.goto('/acme/collections/accessories');
  await page
    .getByRole('list', { name: 'Products and bundles' })
    .getByRole('link', { name: /Merino Wool Beanie/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Merino Wool Beanie' })).toBeVisible();
  // Its first collection in the store's order, whichever collection the shopper came from.
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb.getByRole('listitem')).toHaveText(['Home', 'Apparel', 'Merino Wool Beanie']);
  await expect(breadcrumb.getByText('Merino Wool Beanie')).toHaveAttribute('aria-current', 'page');
  const structured = await page
    .locator('script[type="application/ld+json"]')
    .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? '') as Record<string, unknown>));
  const crumbs = structured.find((data) => data['@type'] === 'BreadcrumbList') as {
    itemListElement: { position: number; name: string; item: string }[];
  };
  expect(crumbs.itemListElement.map((step) => [step.position, step.name])).toEqual([
    [1, 'Home'],
    [2, 'Apparel'],
    [3, 'Merino Wool Beanie'],
  ]);
  expect(crumbs.itemListElement[1]!.item).toBe(`http://shop.acme.test:${port}/collections/apparel`);

  const related = page.getByRole('list', { name: 'Related products' }).getByRole('link');
  await expect(related).toHaveCount(4);
  await expect(related.first()).toContainText('Classic Cotton Tee');
  await expect(related.filter({ hasText: 'Merino Wool Beanie' })).toHaveCount(0);

  await breadcrumb.getByRole('link', { name: 'Apparel' }).click();
  await expect(page).toHaveURL(/\/acme\/collections\/apparel$/);
});

test('collection pages are prerendered, in the sitemap, and unprefixed on the store’s own domain', async ({
  page,
  request,
}) => {
  const html = await readFile(path.join(buildsDir, 'current', 'acme', 'collections', 'footwear', 'index.html'), 'utf8');
  expect(html).toContain('Canvas Sneaker');
  const sitemap = await (await request.get('/acme/sitemap.xml')).text();
  expect(sitemap).toContain(`<loc>http://shop.acme.test:${port}/collections/bundles</loc>`);

  const origin = `http://shop.acme.test:${port}`;
  await page.goto(`${origin}/collections/apparel`);
  await expect(page.getByRole('heading', { level: 1, name: 'Apparel' })).toBeVisible();
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${origin}/collections/apparel`);
  const cards = page.getByRole('list', { name: 'Products and bundles' });
  await expect(cards.getByRole('link', { name: /Weekend Outdoors Pack/ })).toHaveAttribute(
    'href',
    /^\/product-bundle\/\d+$/,
  );
  await page.getByRole('banner').getByText('Collections', { exact: true }).click();
  await collectionsMenu(page).getByRole('link', { name: 'Footwear' }).click();
  await expect(page).toHaveURL(`${origin}/collections/footwear`);
  await expect(page.getByRole('heading', { level: 1, name: 'Footwear' })).toBeVisible();

  const unknown = await request.get('/acme/collections/garden');
  expect(unknown.status()).toBe(404);
  expect(await unknown.text()).toContain('Page not found: /acme/collections/garden');
});

test("a restricted store's collections: refused without access, in no sitemap or build, shown with access", async ({
  page,
  request,
}) => {
  expect((await request.get('/api/store_front/vip/collections')).status()).toBe(422);
  expect((await request.get('/api/store_front/vip/collections/timepieces/listings')).status()).toBe(422);
  await page.goto('/vip/collections/timepieces');
  await expect(page).toHaveURL(/\/restricted$/);
  await expect(page.getByText('VIP Reserve Chronograph')).toHaveCount(0);
  await page.goto(`http://members.vip.test:${port}/collections/timepieces`);
  await expect(page).toHaveURL(`http://members.vip.test:${port}/restricted`);

  // Without access the sitemap is the restricted page's redirect; with it, there is none either.
  expect((await request.get('/vip/sitemap.xml', { maxRedirects: 0 })).status()).toBe(302);
  const withAccess = { headers: { cookie: `allowed-recipient-token=${VIP_UUID}` }, maxRedirects: 0 };
  expect((await request.get('/vip/sitemap.xml', withAccess)).status()).toBe(404);
  expect(await (await request.get('/acme/sitemap.xml')).text()).not.toMatch(/vip|timepieces/i);
  await expect(stat(path.join(buildsDir, 'current', 'vip'))).rejects.toThrow();

  await page.goto(`/vip?uuid=${VIP_UUID}`);
  await expect(page).toHaveURL(/\/vip$/);
  await page.getByRole('banner').getByText('Collections', { exact: true }).click();
  await collectionsMenu(page).getByRole('link', { name: 'Timepieces' }).click();
  await expect(page).toHaveURL(/\/vip\/collections\/timepieces$/);
  await expect(
    page.getByRole('list', { name: 'Products and bundles' }).getByRole('link', { name: /VIP Reserve Chronograph/ }),
  ).toBeVisible();
  await expect(page.locator('meta[name="robots"]').first()).toHaveAttribute('content', /noindex/);
  // Its product pages name the collection too, with no structured data for search engines.
  await page.getByRole('list', { name: 'Products and bundles' }).getByRole('link').first().click();
  await expect(
    page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Timepieces' }),
  ).toBeVisible();
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
});
