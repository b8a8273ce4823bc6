/**
 * Catalog journeys (docs/decisions/030-catalog-pages.md): browse, choose a variant, add (toast + header count), bundles,
 * shop search and sort, SEO files, no restricted data in the static build, rebuild pick-up.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { publishWithToken } from './fixtures/publish.ts';
import { PHONE, VIEWPORTS } from './fixtures/viewports.ts';

const port = Number(process.env.E2E_PORT ?? 4399);
const buildsDir = path.resolve(process.env.BUILDS_DIR ?? `.data-e2e-${port}-builds`);
const VIP_NAMES = ['VIP Reserve Chronograph', 'VIP Reserve Leather Wallet', 'VIP Reserve Cashmere Scarf'];

const cartLink = (page: Page, count: number) =>
  page.getByRole('banner').getByRole('link', { name: new RegExp(`^Cart\\s*${count}\\s*items$`) });

async function expectAddedToast(page: Page, home: string) {
  const toast = page.getByRole('status').filter({ hasText: 'Added to cart' });
  await expect(toast).toBeVisible();
  await expect(toast.getByRole('link', { name: 'Checkout' })).toHaveAttribute('href', `${home}/cart`);
  await expect(toast.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', home);
  // Spec §9: toasts sit top-right, 16 px from the top and right edges of the window's page area, which
  // ends where the room kept for a scrollbar begins (docs/decisions/227-scrollbar-gutter.md): where a fixed
  // box with `right: 0` ends.
  const box = (await toast.boundingBox())!;
  expect(box.y).toBe(16);
  const pageRight = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.cssText = 'position: fixed; top: 0; right: 0; width: 0; height: 0';
    document.body.append(probe);
    const right = probe.getBoundingClientRect().right;
    probe.remove();
    return right;
  });
  expect(pageRight - (box.x + box.width)).toBe(16);
  expect(box.x).toBeGreaterThanOrEqual(16);
}

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && !/\.(br|gz)$/.test(e.name)).map((e) => path.join(e.parentPath, e.name));
}

test('a shopper browses home → shop → product, picks a variant and adds it; the toast and header count follow', async ({
  page,
}) => {
  await page.goto('/acme');
  await expect(page).toHaveTitle('Acme Supply Co. - Home');
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Supply Co.' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Featured products' }).getByRole('link', { name: /Classic Cotton Tee/ }),
  ).toBeVisible();

  await page.getByRole('link', { name: 'Shop all products' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Shop' })).toBeVisible();
  await page
    .getByRole('list', { name: 'Products and bundles' })
    .getByRole('link', { name: /Classic Cotton Tee/ })
    .click();

  await expect(page.getByRole('heading', { level: 1, name: 'Classic Cotton Tee' })).toBeVisible();
  await expect(page).toHaveTitle('Acme Supply Co. - Classic Cotton Tee');
  const buy = page.locator('.add-to-cart[data-fresh]');
  await expect(buy).toBeVisible(); // hydrated and revalidated against the API
  await page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: 'XL', exact: true }).check();
  await page.getByRole('group', { name: 'Color' }).getByRole('radio', { name: 'Navy', exact: true }).check();
  await expect(buy.getByText('$22.00')).toBeVisible();
  await page.getByRole('spinbutton', { name: 'Quantity' }).fill('2');
  await page.getByRole('button', { name: 'Add to cart' }).click();

  await expectAddedToast(page, '/acme');
  await expect(cartLink(page, 2)).toBeVisible();
});

for (const viewport of Object.values(VIEWPORTS)) {
  test(`the chosen variant stays in the URL, so a reload or a shared link shows it (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/acme/shop');
    await page
      .getByRole('list', { name: 'Products and bundles' })
      .getByRole('link', { name: /Classic Cotton Tee/ })
      .click();
    await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
    await page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: 'XL', exact: true }).check();
    await page.getByRole('group', { name: 'Color' }).getByRole('radio', { name: 'Navy', exact: true }).check();
    await expect(page).toHaveURL(/[?&]variant=[^&]+/);
    const shared = page.url();

    await page.reload();
    await expect(
      page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: 'XL', exact: true }),
    ).toBeChecked();
    await expect(
      page.getByRole('group', { name: 'Color' }).getByRole('radio', { name: 'Navy', exact: true }),
    ).toBeChecked();
    await expect(page.locator('.add-to-cart').getByText('$22.00')).toBeVisible();

    const other = await page.context().newPage();
    await other.goto(shared);
    await expect(
      other.getByRole('group', { name: 'Size' }).getByRole('radio', { name: 'XL', exact: true }),
    ).toBeChecked();
    await other.close();
  });
}

for (const viewport of Object.values(VIEWPORTS)) {
  test(`product and bundle pages pass axe once their add to cart is live, a sold-out choice and an add included (${viewport.width} px)`, async ({
    page,
  }) => {
    const violations = async (label: string) =>
      (await new AxeBuilder({ page }).analyze()).violations.map((v) => `${label}: ${v.id} (${v.impact})`);
    await page.setViewportSize(viewport);
    await page.goto('/acme/product/1');
    await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
    expect(await violations('product')).toEqual([]);
    await page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: 'S', exact: true }).check();
    await page.getByRole('group', { name: 'Color' }).getByRole('radio', { name: 'Red (sold out)' }).check();
    await expect(page.getByRole('button', { name: 'Sold out' })).toBeDisabled();
    expect(await violations('sold-out variant')).toEqual([]);

    await page.goto('/acme/product-bundle/1');
    await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
    await page.getByRole('button', { name: 'Add bundle to cart' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Added to cart' })).toBeVisible();
    expect(await violations('bundle with its toast')).toEqual([]);
  });
}

test('a sold-out variant cannot be added', async ({ page }) => {
  await page.goto('/acme/shop');
  await page
    .getByRole('list', { name: 'Products and bundles' })
    .getByRole('link', { name: /Classic Cotton Tee/ })
    .click();
  await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
  await page.getByRole('group', { name: 'Size' }).getByRole('radio', { name: 'S', exact: true }).check();
  // With S chosen, Red names only a sold-out variant, and says so.
  await page.getByRole('group', { name: 'Color' }).getByRole('radio', { name: 'Red (sold out)' }).check();
  await expect(page.locator('.add-to-cart').getByText('Sold out', { exact: true }).first()).toBeVisible();
  // The button says why it cannot add, and there is no quantity to choose.
  await expect(page.getByRole('button', { name: 'Sold out' })).toBeDisabled();
  await expect(page.getByRole('spinbutton', { name: 'Quantity' })).toBeDisabled();
});

for (const viewport of Object.values(VIEWPORTS)) {
  test(`the quantity is typed freely, clamped on leaving the field to the stock, and the button says it is adding (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/acme/shop');
    await page
      .getByRole('list', { name: 'Products and bundles' })
      .getByRole('link', { name: /Polarised Sunglasses/ })
      .click();
    await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
    const quantity = page.getByRole('spinbutton', { name: 'Quantity' });
    await expect(quantity).toHaveAccessibleDescription('Up to 3');
    // Emptied and retyped without being put back to 1 on the way.
    await quantity.fill('');
    await expect(quantity).toHaveValue('');
    await quantity.pressSequentially('12');
    await expect(quantity).toHaveValue('12');
    await quantity.blur();
    await expect(quantity).toHaveValue('3');
    await quantity.fill('0');
    await quantity.blur();
    await expect(quantity).toHaveValue('1');

    // While the add is on its way the button says so, and cannot be pressed again.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/cart/cart_line_items', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('button', { name: 'Adding…' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Adding…' })).toBeFocused();
    release();
    await expectAddedToast(page, '/acme');
    // The keyboard focus stayed on the button all along.
    await expect(page.getByRole('button', { name: 'Add to cart' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Add to cart' })).toBeFocused();
  });
}

test('a product with few left says “Only 3 left” and the quantity picker stops at its stock', async ({ page }) => {
  await page.goto('/acme/shop');
  await page
    .getByRole('list', { name: 'Products and bundles' })
    .getByRole('link', { name: /Polarised Sunglasses/ })
    .click();
  const buy = page.locator('.add-to-cart[data-fresh]');
  await expect(buy).toBeVisible();
  await expect(buy.getByText('Only 3 left', { exact: true })).toBeVisible();
  const quantity = page.getByRole('spinbutton', { name: 'Quantity' });
  await expect(quantity).toHaveAttribute('max', '3');
  await quantity.fill('5');
  await quantity.blur();
  await expect(quantity).toHaveValue('3');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expectAddedToast(page, '/acme');
  await expect(cartLink(page, 3)).toBeVisible();
});

test('a whole bundle is added from its page', async ({ page }) => {
  await page.goto('/acme/shop');
  await page
    .getByRole('list', { name: 'Products and bundles' })
    .getByRole('link', { name: /Morning Coffee Kit/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Morning Coffee Kit' })).toBeVisible();
  const items = page.getByRole('list').filter({ hasText: 'Pour-Over Coffee Set' });
  await expect(items.getByRole('listitem')).toHaveCount(3);
  await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
  await page.getByRole('button', { name: 'Add bundle to cart' }).click();
  await expectAddedToast(page, '/acme');
  await expect(cartLink(page, 1)).toBeVisible();
});

test('a toast waits while the pointer or the keyboard focus is on it, then gets the rest of its time (WCAG 2.2.1)', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/acme/product/1');
  await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
  const add = page.getByRole('button', { name: 'Add to cart' });
  const toast = page.getByRole('status').filter({ hasText: 'Added to cart' });

  await add.click();
  await toast.hover();
  await page.clock.runFor(10_000);
  await expect(toast).toBeVisible();
  await add.hover();
  await page.clock.runFor(2_500);
  await expect(toast).toHaveCount(0);

  await add.click();
  await toast.getByRole('link', { name: 'Checkout' }).focus();
  await page.clock.runFor(10_000);
  await expect(toast).toBeVisible();
  await add.focus();
  await page.clock.runFor(2_500);
  await expect(toast).toHaveCount(0);
});

test('the shop searches by name and sorts by price', async ({ page }) => {
  await page.goto('/acme/shop');
  await page.getByRole('searchbox', { name: 'Search products' }).fill('mug');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]q=mug/);
  const products = page.getByRole('list', { name: 'Products and bundles' }).getByRole('link');
  await expect(products).toHaveText([/Stoneware Mug/]);

  await page.getByRole('searchbox', { name: 'Search products' }).fill('');
  // The sort applies on change, its state in the URL (shareable, and the back button returns to it).
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Price: high to low' });
  await expect(page).toHaveURL(/sort=-price/);
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('-price');
  const prices = await page.getByRole('list', { name: 'Products and bundles' }).locator('.price').allTextContents();
  const values = prices.map((p) => Number(p.replace(/[$,]/g, '')));
  expect(values.length).toBeGreaterThan(5);
  expect(values).toEqual([...values].sort((a, b) => b - a));
  // Products and bundles are sorted together: a bundle sits among the products by its price.
  const kinds = await page
    .getByRole('list', { name: 'Products and bundles' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => (item.querySelector('.card__badge') ? 'bundle' : 'product')));
  expect(kinds.indexOf('product')).toBeLessThan(kinds.lastIndexOf('bundle'));
  expect(kinds.indexOf('bundle')).toBeGreaterThan(0);

  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Name: A to Z' });
  await expect(page).toHaveURL(/sort=name|\/shop$/);
  await page.goBack();
  await expect(page).toHaveURL(/sort=-price/);
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('-price');
});

test('on a phone the product grid has two columns', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/acme/shop');
  const cards = page.getByRole('list', { name: 'Products and bundles' }).getByRole('listitem');
  const [first, second] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
  expect(second!.y).toBe(first!.y);
  expect(second!.x).toBeGreaterThan(first!.x + first!.width - 1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('sitemap and robots.txt cover the public store and never the restricted one', async ({ request }) => {
  const sitemap = await request.get('/acme/sitemap.xml');
  expect(sitemap.status()).toBe(200);
  const xml = await sitemap.text();
  // acme has its own domain: its pages' one address is there, asked from the slug address or not.
  expect(xml).toContain(`<loc>http://shop.acme.test:${port}/shop</loc>`);
  expect(xml).toMatch(new RegExp(`<loc>http://shop\\.acme\\.test:${port}/product/\\w+</loc>`));
  expect(xml).toMatch(new RegExp(`<loc>http://shop\\.acme\\.test:${port}/product-bundle/\\w+</loc>`));
  expect(xml).not.toContain('/acme/');

  const vip = await request.get('/vip/sitemap.xml', { maxRedirects: 0 });
  expect(vip.status()).not.toBe(200);
  expect(await vip.text()).not.toContain('<urlset');

  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  const text = await robots.text();
  expect(text).toContain('Disallow: /*/cart');
  expect(text).not.toContain('vip');
});

test('the static build holds no restricted store data', async ({ request }) => {
  expect((await request.get('/acme/shop')).status()).toBe(200);
  const files = await filesBelow(buildsDir);
  expect(files.some((f) => f.endsWith(path.join('acme', 'shop', 'index.html')))).toBe(true);
  expect(files.some((f) => f.endsWith(path.join('acme', 'shop', '_payload.json')))).toBe(true);
  for (const file of files) {
    expect(file).not.toMatch(/[/\\]vip[/\\]/);
    if (path.basename(file) === '.rebuild-token') continue;
    const text = await readFile(file, 'utf8');
    for (const name of VIP_NAMES) expect(text, file).not.toContain(name);
  }
});

test('a rebuild during a session makes the next navigation load the new build', async ({ page, request }) => {
  await page.goto('/acme/shop');
  const bundleLink = page
    .getByRole('list', { name: 'Products and bundles' })
    .getByRole('link', { name: /Morning Coffee Kit/ });
  const href = (await bundleLink.getAttribute('href'))!;
  const before = (await (await request.get(`/builds/latest.json?${Date.now()}`)).json()) as { id: string };
  expect((await request.get(href)).headers()['server-timing']).toBe(`build;desc="${before.id}"`); // from the snapshot

  await publishWithToken(request, buildsDir);
  const after = (await (await request.get(`/builds/latest.json?${Date.now()}`)).json()) as { id: string };
  expect(after.id).not.toBe(before.id);

  // The poller checks when the tab becomes visible again (and every minute).
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(page.locator(`html[data-build-outdated="${after.id}"]`)).toHaveCount(1);

  const navigation = page.waitForResponse(
    (r) => r.request().resourceType() === 'document' && new URL(r.url()).pathname === href,
  );
  await bundleLink.click();
  const response = await navigation;
  expect(response.status()).toBe(200);
  // Served from the new build, which names itself; the page's bytes (and ETag) may be the old build's, hard-linked
  // because nothing it shows changed (docs/decisions/211-incremental-builds.md).
  expect(response.headers()['server-timing']).toBe(`build;desc="${after.id}"`);
});

for (const kind of ['product', 'bundle'] as const) {
  test(`a ${kind} page kept open across a publish shows the new build’s data on the next view`, async ({ page }) => {
    await page.goto('/acme/shop');
    const cards = page.getByRole('list', { name: 'Products and bundles' }).getByRole('listitem');
    const badge = page.locator('.card__badge', { hasText: 'Bundle' });
    const ofKind = kind === 'bundle' ? cards.filter({ has: badge }) : cards.filter({ hasNot: badge });
    await ofKind.first().getByRole('link').click();
    await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
    const path = new URL(page.url()).pathname;

    // A publish happens while the tab is in the background: latest.json names a new build, whose
    // payload for this page has another price (the live build's payload, changed on the way).
    const published = 'published-after-open';
    await page.route('**/builds/latest.json?*', (route) =>
      route.fulfill({ json: { id: published, timestamp: Date.now() } }),
    );
    const asked: string[] = [];
    await page.route(`**${path}/_payload.json?*`, async (route) => {
      asked.push(new URL(route.request().url()).search);
      const response = await route.fetch();
      const payload = (await response.json()) as { data: { variants: { price: string }[]; bundle: { price: string } } };
      if (kind === 'product') for (const variant of payload.data.variants) variant.price = '123.45';
      else payload.data.bundle.price = '123.45';
      await route.fulfill({ response, json: payload });
    });
    // The shopper comes back to the tab.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect(page.locator('.add-to-cart__price')).toContainText('$123.45');
    expect(asked).toEqual([`?${published}`]);
  });
}

test('a product has one canonical URL, on the store’s own domain, whether reached by slug or by domain', async ({
  page,
}) => {
  await page.goto('/acme/product/1');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    `http://shop.acme.test:${port}/product/1`,
  );
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute(
    'content',
    `http://shop.acme.test:${port}/product/1`,
  );
  await page.goto(`http://shop.acme.test:${port}/product/1`);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    `http://shop.acme.test:${port}/product/1`,
  );
  // The store front too.
  await page.goto('/acme');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `http://shop.acme.test:${port}`);
});

test('on the store’s own domain the catalog links have no prefix and the toast points at /cart', async ({ page }) => {
  await page.goto(`http://shop.acme.test:${port}/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Acme Supply Co.' })).toBeVisible();
  const shop = page.getByRole('link', { name: 'Shop all products' });
  await expect(shop).toHaveAttribute('href', '/shop');
  await shop.click();
  await expect(page).toHaveURL(`http://shop.acme.test:${port}/shop`);
  await page
    .getByRole('list', { name: 'Products and bundles' })
    .getByRole('link', { name: /Stoneware Mug/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`^http://shop\\.acme\\.test:${port}/product/\\w+$`));
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', page.url());
  await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  const toast = page.getByRole('status').filter({ hasText: 'Added to cart' });
  await expect(toast.getByRole('link', { name: 'Checkout' })).toHaveAttribute('href', '/cart');
  await expect(toast.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', '/');
});

test('the product gallery shows the default image first and another on choosing its thumbnail, without script', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/acme/product/1');
  const stage = page.locator('.gallery__stage');
  const shown = stage.locator('img:visible');
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute('alt', /view 1$/);
  const box = (await stage.boundingBox())!;
  expect(box.height).toBeGreaterThan(200);
  await page.locator('.gallery__thumb').nth(1).click();
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute('alt', /view 2$/);
  await context.close();
});
