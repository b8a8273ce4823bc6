/**
 * Search (docs/decisions/191-search-engine.md) as shoppers use it, at desktop and phone sizes: the
 * header's field with instant results loaded on first use, the results page and its URL state, and
 * a restricted store's products kept out of every public answer.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { demoCatalogs, VIP_RECIPIENT } from '../../src/server/db/demo-data.ts';
import { SLUG } from './fixtures/cart-page.ts';
import { VIEWPORTS } from './fixtures/viewports.ts';

/** The header's field: a searchbox until first used, then a combobox. */
const headerField = (page: Page) => page.getByRole('banner').getByLabel('Search the store');
const headerSearch = (page: Page) => page.getByRole('banner').getByRole('combobox', { name: 'Search the store' });

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${name} size`, () => {
    test.use({ viewport });

    test('a word only another product’s description holds, typed in a product page’s header, opens that product', async ({
      page,
    }) => {
      const searchChunks: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('search-box')) searchChunks.push(request.url());
      });
      await page.goto(`/${SLUG}/product/1`);
      await expect(page.getByRole('heading', { level: 1, name: 'Classic Cotton Tee' })).toBeVisible();
      // A plain search field until it is used: no instant-results code loaded yet.
      await expect(page.getByRole('banner').getByRole('searchbox', { name: 'Search the store' })).toBeVisible();
      expect(searchChunks).toEqual([]);
      const field = headerField(page);

      await field.click();
      await field.pressSequentially('borosilicate');
      const combobox = headerSearch(page);
      await expect(combobox).toHaveAttribute('aria-expanded', 'true');
      const option = page.getByRole('option', { name: /Pour-Over Coffee Set/ });
      await expect(option).toBeVisible();
      await expect(option).toContainText('$46.00');
      await expect(option.getByRole('img')).toHaveCount(0); // decorative: alt=""
      await expect(option.locator('img')).toHaveAttribute('src', /pour-over/);
      expect(searchChunks.length).toBeGreaterThan(0);

      await combobox.press('ArrowDown');
      await expect(combobox).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
      await expect(option).toHaveAttribute('aria-selected', 'true');
      await combobox.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/${SLUG}/product/\\d+$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Pour-Over Coffee Set' })).toBeVisible();
    });

    test('Escape keeps the list closed when an answer to what was typed arrives afterwards', async ({ page }) => {
      // Once the list is open, hold the next answer until the shopper has pressed Escape.
      let hold = false;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const heldQuery = new Promise<void>((resolve) => (asked = resolve));
      await page.route('**/api/store_front/*/search?*', async (route) => {
        if (hold) {
          asked();
          await released;
        }
        await route.continue();
      });
      await page.goto(`/${SLUG}/shop`);
      const field = headerField(page);
      await field.click();
      await field.pressSequentially('coffee');
      await expect(headerSearch(page)).toHaveAttribute('aria-expanded', 'true');

      hold = true;
      await headerSearch(page).press('s');
      await heldQuery;
      await headerSearch(page).press('Escape');
      await expect(headerSearch(page)).toHaveAttribute('aria-expanded', 'false');
      const answered = page.waitForResponse((response) => response.url().includes('/search?'));
      release();
      await (await answered).finished();
      // Two frames after the answer's body: the script has read it by now.
      for (let frame = 0; frame < 2; frame++) await page.evaluate(() => new Promise(requestAnimationFrame));
      await expect(headerSearch(page)).toHaveAttribute('aria-expanded', 'false');
      await expect(page.locator('#site-search-listbox')).toBeHidden();
      await expect(headerSearch(page)).toHaveValue('coffees');
    });

    test('a typo finds the product; Enter opens the results page, whose sort and page survive reload and Back', async ({
      page,
    }) => {
      await page.goto(`/${SLUG}/shop`);
      const field = headerField(page);
      await field.click();
      await field.pressSequentially('colombai');
      await expect(page.getByRole('option', { name: /Single-Origin Coffee Beans/ })).toBeVisible();
      // Escape closes the list and leaves the text.
      await headerSearch(page).press('Escape');
      await expect(headerSearch(page)).toHaveAttribute('aria-expanded', 'false');
      await expect(page.getByRole('listbox')).toBeHidden();
      await headerSearch(page).press('Enter');

      await expect(page).toHaveURL(`/${SLUG}/search?q=colombai`);
      await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
      const results = page.getByRole('list', { name: 'Search results' });
      await expect(results.getByRole('link', { name: /Single-Origin Coffee Beans/ })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'matching' })).toHaveText('1 item matching “colombai”');

      await page.getByRole('searchbox', { name: 'Search products' }).fill('coffee');
      await page.getByRole('main').getByRole('button', { name: 'Search', exact: true }).click();
      // The form's empty fields (price_min=…) are left out of the address, and so is the default sort.
      await expect(page).toHaveURL(`/${SLUG}/search?q=coffee`);
      await page.getByLabel('Sort by').selectOption('-price');
      await expect(page).toHaveURL(`/${SLUG}/search?q=coffee&sort=-price`);
      const prices = async () =>
        (await page.getByRole('list', { name: 'Search results' }).locator('.card__price').allTextContents()).map(
          (text) => Number(text.replace(/[^0-9.]/g, '')),
        );
      const sorted = await prices();
      expect(sorted.length).toBeGreaterThan(1);
      expect(sorted).toEqual([...sorted].sort((a, b) => b - a));

      await page.reload();
      await expect(page.getByLabel('Sort by')).toHaveValue('-price');
      await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveValue('coffee');
      expect(await prices()).toEqual(sorted);

      await page.goBack();
      await expect(page).toHaveURL(`/${SLUG}/search?q=coffee`);
      await expect(page.getByLabel('Sort by')).toHaveValue('relevance');
    });
  });
}

test('without JavaScript the header search is a form that opens the results page', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: baseURL! });
  const page = await context.newPage();
  await page.goto(`/${SLUG}`);
  const field = headerField(page);
  await field.fill('stoneware mug');
  await field.press('Enter');
  await expect(page).toHaveURL(`/${SLUG}/search?q=stoneware+mug`);
  await expect(
    page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: /Stoneware Mug/ }),
  ).toBeVisible();
  await context.close();
});

test('nothing found offers the featured items; strange queries answer a page, never an error', async ({
  page,
  request,
}) => {
  await page.goto(`/${SLUG}/search?q=${encodeURIComponent('zzqqxxv')}`);
  await expect(page.getByText('Nothing matches your search.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Featured products and bundles' }).getByRole('link')).not.toHaveCount(0);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  for (const q of ['', ' ', "'; drop table products; --", '%_\\', 'コーヒー 🙂', 'x'.repeat(5000)]) {
    const answer = await request.get(`/${SLUG}/search?q=${encodeURIComponent(q)}&sort=bogus&page=-3`);
    expect(answer.status(), q.slice(0, 20)).toBe(200);
  }
});

test('the results page and the open instant results pass axe', async ({ page }) => {
  await page.goto(`/${SLUG}/search?q=coffee`);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  const field = headerField(page);
  await field.click();
  await field.pressSequentially('mug');
  await expect(page.getByRole('option', { name: /Stoneware Mug/ })).toBeVisible();
  await headerSearch(page).press('ArrowDown');
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test('a custom domain searches without the store prefix', async ({ page, baseURL }) => {
  const origin = `http://shop.acme.test:${new URL(baseURL!).port}`;
  await page.goto(`${origin}/product/1`);
  const field = headerField(page);
  await field.click();
  await field.pressSequentially('colombia');
  await expect(page.getByRole('option', { name: /Single-Origin Coffee Beans/ })).toBeVisible();
  await headerSearch(page).press('Enter');
  await expect(page).toHaveURL(`${origin}/search?q=colombia`);
  await expect(
    page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: /Single-Origin Coffee Beans/ }),
  ).toHaveAttribute('href', /^\/product\/\d+$/);
});

test('a restricted store is searched only with access, and its products appear in no public search', async ({
  page,
  request,
}) => {
  const vip = demoCatalogs.find((c) => c.store.restricted)!;
  const names = (vip.products ?? []).map((p) => p.name);
  expect((await request.get('/api/store_front/vip/search?q=chronograph')).status()).toBe(422);
  const refused = await request.get('/vip/search?q=chronograph', { maxRedirects: 0 });
  expect(refused.status()).toBeGreaterThanOrEqual(300);
  for (const name of names) expect(await refused.text()).not.toContain(name);

  for (const q of ['VIP Reserve', 'chronograph', 'cashmere', 'wallet']) {
    const api = await request.get(`/api/store_front/${SLUG}/search?q=${encodeURIComponent(q)}`);
    const html = await request.get(`/${SLUG}/search?q=${encodeURIComponent(q)}`);
    for (const body of [await api.text(), await html.text()])
      for (const name of names) expect(body, `${q}: ${name}`).not.toContain(name);
  }

  // With access the store's own search finds them.
  await page.goto(`/vip?uuid=${VIP_RECIPIENT.uuid}`);
  await expect(page).toHaveURL(/\/vip$/);
  const field = headerField(page);
  await field.click();
  await field.pressSequentially('chronograph');
  await expect(page.getByRole('option', { name: /VIP Reserve Chronograph/ })).toBeVisible();
  await headerSearch(page).press('Enter');
  await expect(page).toHaveURL('/vip/search?q=chronograph');
  await expect(page.getByRole('link', { name: /VIP Reserve Chronograph/ })).toBeVisible();
});
