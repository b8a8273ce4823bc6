/**
 * The storefront's frame (issue 3): every route with and without the store prefix, the custom
 * domain, store loading (restricted store, access link, unknown store), error pages and titles.
 *   E2E_PORT=4420 DIST_DIR=dist-shell npm run test:e2e -- tests/e2e/shell.spec.ts
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type TestInfo } from '@playwright/test';

const ACME = 'Acme Supply Co.';
const VIP = 'VIP Reserve';
const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';
const ORDER_UUID = '00000000-0000-4000-8000-000000000000';

function customDomainUrl(baseURL: string | undefined, path: string): string {
  const port = new URL(baseURL ?? 'http://localhost').port;
  return `http://shop.acme.test:${port}${path}`;
}

async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
}

async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function expectErrorScreen(page: Page, status: number, message: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: 'Error' })).toBeVisible();
  await expect(page.getByText(String(status), { exact: true })).toBeVisible();
  await expect(page.getByText(message, { exact: true })).toBeVisible();
}

async function expectStoreFrame(page: Page, storeTitle: string, pageName: string | RegExp, links: { home: string; cart: string }) {
  if (typeof pageName === 'string') await expect(page).toHaveTitle(`${storeTitle} - ${pageName}`);
  else await expect(page).toHaveTitle(new RegExp(`^${storeTitle.replace(/\./g, '\\.')} - ${pageName.source}$`));
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: storeTitle })).toHaveAttribute('href', links.home);
  await expect(header.getByRole('link', { name: /^Cart \d+ items$/ })).toHaveAttribute('href', links.cart);
}

test.describe('store pages by slug', () => {
  const routes: Array<[string, string | RegExp]> = [
    ['/acme', 'Home'],
    ['/acme/shop', 'Shop'],
    ['/acme/product/1', /.+/],
    ['/acme/product-bundle/1', /.+/],
    ['/acme/cart', 'Cart'],
    ['/acme/checkout', 'Checkout'],
  ];
  for (const [path, pageName] of routes) {
    test(`${path} renders in the store frame with prefixed links`, async ({ page }, testInfo) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expectStoreFrame(page, ACME, pageName, { home: '/acme', cart: '/acme/cart' });
      await expect(page.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
      await attachScreenshot(page, testInfo, `page${path.replace(/\//g, '_')}`);
    });
  }

  test('the order pages are reachable under the prefix (an unknown order is the page’s own answer)', async ({ page }) => {
    for (const path of [`/acme/order/${ORDER_UUID}`, `/acme/order-confirmation/${ORDER_UUID}`]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBeLessThan(500);
      expect(new URL(page.url()).pathname).toBe(path);
    }
  });

  test('the header cart count shows the cart’s line items size', async ({ page }) => {
    await page.goto('/acme');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Cart 0 items' })).toBeVisible();
  });

  test('the store front passes axe without serious or critical violations', async ({ page }) => {
    await page.goto('/acme');
    await expectNoSeriousAxeViolations(page);
  });
});

test.describe('store pages without a prefix on a shared host', () => {
  for (const path of ['/', '/shop', '/cart', '/checkout', '/product/1', '/product-bundle/1', `/order/${ORDER_UUID}`, `/order-confirmation/${ORDER_UUID}`]) {
    test(`${path} names no store and goes to /404`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/404$/);
      await expect(page).toHaveTitle('Page not found');
      await expect(page.getByRole('heading', { name: 'Error' })).toBeVisible();
    });
  }
});

test.describe('a custom domain', () => {
  const routes: Array<[string, string | RegExp]> = [
    ['/', 'Home'],
    ['/shop', 'Shop'],
    ['/product/1', /.+/],
    ['/product-bundle/1', /.+/],
    ['/cart', 'Cart'],
    ['/checkout', 'Checkout'],
  ];
  for (const [path, pageName] of routes) {
    test(`${path} renders the store with unprefixed links`, async ({ page, baseURL }, testInfo) => {
      const response = await page.goto(customDomainUrl(baseURL, path));
      expect(response?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe(path);
      await expectStoreFrame(page, ACME, pageName, { home: '/', cart: '/cart' });
      if (path === '/') await attachScreenshot(page, testInfo, 'custom-domain-home');
    });
  }

  test('an unknown path is a 404 naming the path the shopper typed', async ({ page, baseURL }) => {
    const response = await page.goto(customDomainUrl(baseURL, '/no/such/page'));
    expect(response?.status()).toBe(404);
    await expectErrorScreen(page, 404, 'Page not found: /no/such/page');
  });
});

test.describe('store-less pages, with and without a prefix', () => {
  for (const prefix of ['', '/acme']) {
    test(`${prefix || '(no prefix)'}: /404, /home, /store-not-found and /restricted render without a store`, async ({ page }, testInfo) => {
      let response = await page.goto(`${prefix}/404`);
      expect(response?.status()).toBe(404);
      await expectErrorScreen(page, 404, 'Page not found');
      await expectNoSeriousAxeViolations(page);
      if (!prefix) await attachScreenshot(page, testInfo, 'page_404');

      response = await page.goto(`${prefix}/home`);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle('Home');
      await expectNoSeriousAxeViolations(page);
      if (!prefix) await attachScreenshot(page, testInfo, 'page_home');

      response = await page.goto(`${prefix}/store-not-found`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Store not found' })).toBeVisible();
      await expectNoSeriousAxeViolations(page);
      if (!prefix) await attachScreenshot(page, testInfo, 'page_store-not-found');

      response = await page.goto(`${prefix}/restricted`);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { name: 'Restricted access' })).toBeVisible();
      await expectNoSeriousAxeViolations(page);
    });

    test(`${prefix || '(no prefix)'}: /refresh returns to a same-origin path only`, async ({ page }) => {
      await page.goto(`${prefix}/refresh?to=${encodeURIComponent('/acme/shop')}`);
      await expect(page).toHaveURL(/\/acme\/shop$/);
      await page.goto(`${prefix}/refresh?to=${encodeURIComponent('//evil.example/x')}`);
      expect(new URL(page.url()).hostname).toBe('localhost');
      await expect(page).toHaveURL(/\/404$/);
    });
  }
});

test.describe('errors', () => {
  test("an unknown route is a 404 'Page not found: {path}' on the bare error screen", async ({ page }, testInfo) => {
    const response = await page.goto('/acme/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle('Page not found');
    await expectErrorScreen(page, 404, 'Page not found: /acme/no/such/page');
    await expectNoSeriousAxeViolations(page);
    await attachScreenshot(page, testInfo, 'page_unknown-route');
  });

  test("a route whose validate check fails is a 404 'Page Not Found: {path}'", async ({ page }) => {
    const response = await page.goto('/acme/order/not-a-uuid');
    expect(response?.status()).toBe(404);
    await expectErrorScreen(page, 404, 'Page Not Found: /acme/order/not-a-uuid');
  });

  test("after a store fetch without an answer, /404 shows 'Unable Fetch Store'", async ({ page }) => {
    await page.goto('/404?load-error=1');
    await expect(page.getByRole('alert')).toHaveText('Unable Fetch Store');
    await expectErrorScreen(page, 404, 'Page not found');
  });

  test('an unknown store slug goes to /store-not-found', async ({ page }) => {
    await page.goto('/no-such-store/shop');
    await expect(page).toHaveURL(/\/store-not-found$/);
    await expect(page).toHaveTitle('Store not found');
  });

  test('a crawler gets the status without an error page', async ({ request }) => {
    const response = await request.get('/acme/no/such/page', {
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    });
    expect(response.status()).toBe(404);
    expect(await response.text()).toBe('');
  });

  test('a route rule redirects an old listing URL to the shop', async ({ page }) => {
    await page.goto('/acme/products');
    await expect(page).toHaveURL(/\/acme\/shop$/);
  });
});

test.describe('the restricted store', () => {
  test('/vip without access goes to /restricted, which offers the email form', async ({ page }, testInfo) => {
    await page.goto('/vip');
    await expect(page).toHaveURL(/\/restricted$/);
    await expect(page).toHaveTitle('Restricted access');
    await expect(page.getByText('The store has restricted access. Please contact Admin.')).toBeVisible();
    await attachScreenshot(page, testInfo, 'page_restricted');

    const email = page.getByLabel('Email');
    await email.focus();
    await email.blur();
    await expect(page.getByText('Email is required.')).toBeVisible();
    await email.fill('not-an-email');
    await email.blur();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  });

  test('asking for a link confirms without saying whether the email is listed', async ({ page }) => {
    await page.goto('/vip');
    await expect(page).toHaveURL(/\/restricted$/);
    const ask = async (address: string) => {
      await page.getByLabel('Email').fill(address);
      await page.getByRole('button', { name: 'Send me a link' }).click();
      const done = page.getByRole('status').filter({ hasText: 'Check your inbox' });
      await expect(done).toBeVisible();
      return (await done.innerText()).replace(address, '{email}');
    };
    const listed = await ask('vip@example.com');
    await page.goto('/vip');
    const unlisted = await ask('nobody@example.com');
    expect(unlisted).toBe(listed);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'browser_token')?.value).toMatch(/^[\x21-\x7e]{16,200}$/);
  });

  test("on the store's own domain, /restricted still offers the email form", async ({ page, baseURL }) => {
    const port = new URL(baseURL!).port;
    const verify = page.waitForRequest((request) => request.url().includes('/allowed_users/verify'));
    await page.goto(`http://members.vip.test:${port}/`);
    await expect(page).toHaveURL(`http://members.vip.test:${port}/restricted`);
    await page.getByLabel('Email').fill('guest@example.com');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    expect(new URL((await verify).url()).searchParams.get('custom_domain')).toBe('members.vip.test');
    await expect(page.getByRole('status').filter({ hasText: 'Check your inbox' })).toBeVisible();
  });

  test('the access link stores the cookie, passes /refresh and lands on the store without the uuid', async ({ page }, testInfo) => {
    const visited: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(new URL(request.url()).pathname + new URL(request.url()).search);
    });
    await page.goto(`/vip?uuid=${VIP_UUID}`);
    await expect(page).toHaveURL(/\/vip$/);
    expect(visited).toContain('/refresh?to=%2Fvip');
    await expectStoreFrame(page, VIP, 'Home', { home: '/vip', cart: '/vip/cart' });
    const cookie = (await page.context().cookies()).find((c) => c.name === 'allowed-recipient-token');
    expect(cookie).toMatchObject({ value: VIP_UUID, path: '/vip', sameSite: 'Lax' });
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(604800 - 120);
    await attachScreenshot(page, testInfo, 'page_vip-store');

    // The cookie keeps the store open on the next visit.
    await page.goto('/vip/shop');
    await expect(page).toHaveTitle(`${VIP} - Shop`);
  });
});
