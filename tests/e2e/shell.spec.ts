/**
 * The storefront’s frame (spec §2, §4): every route with and without the store prefix, the custom
 * domain, store loading (restricted store, access link, unknown store), error pages and titles.
 *   E2E_PORT=4420 DIST_DIR=dist-shell npm run test:e2e -- tests/e2e/shell.spec.ts
 */
import AxeBuilder from '@axe-core/playwright';
import { chromium, expect, test, type Page, type TestInfo } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.ts';
import { islandsHydrated } from './fixtures/islands.ts';
import { layoutShifts } from './fixtures/layout-shift.ts';

const ACME = 'Acme Supply Co.';
const VIP = 'VIP Reserve';
const VIP_UUID = '8f14e45f-ea1c-4b4e-9d6a-000000000001';
const ORDER_UUID = '00000000-0000-4000-8000-000000000000';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

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

async function expectStoreFrame(
  page: Page,
  storeTitle: string,
  pageName: string | RegExp,
  links: { home: string; cart: string },
) {
  if (typeof pageName === 'string') await expect(page).toHaveTitle(`${storeTitle} - ${pageName}`);
  else await expect(page).toHaveTitle(new RegExp(`^${storeTitle.replace(/\./g, '\\.')} - ${pageName.source}$`));
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: storeTitle })).toHaveAttribute('href', links.home);
  await expect(header.getByRole('link', { name: /^Cart \d+ items$/ })).toHaveAttribute('href', links.cart);
}

test.describe('store pages by slug', () => {
  const routes: [string, string | RegExp][] = [
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

  test('the order pages are reachable under the prefix (an unknown order is the page’s own answer)', async ({
    page,
  }) => {
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
  for (const path of [
    '/',
    '/shop',
    '/cart',
    '/checkout',
    '/product/1',
    '/product-bundle/1',
    `/order/${ORDER_UUID}`,
    `/order-confirmation/${ORDER_UUID}`,
  ]) {
    test(`${path} names no store and goes to /404`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/404$/);
      await expect(page).toHaveTitle('Page not found');
      await expect(page.getByRole('heading', { name: 'Error' })).toBeVisible();
    });
  }
});

test.describe('a custom domain', () => {
  const routes: [string, string | RegExp][] = [
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
    test(`${prefix || '(no prefix)'}: /404, /home, /store-not-found and /restricted render without a store`, async ({
      page,
    }, testInfo) => {
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
    const response = await request.get('/acme/no/such/page', { headers: { 'user-agent': GOOGLEBOT } });
    expect(response.status()).toBe(404);
    expect(await response.text()).toBe('');
  });

  test('a crawler gets only the status on every error path, unknown orders included', async ({ request }) => {
    const paths = [
      `/acme/order/${ORDER_UUID}`,
      `/acme/order-confirmation/${ORDER_UUID}`,
      '/acme/order/not-a-uuid',
      '/acme/product/no-such-product',
      '/acme/product-bundle/no-such-bundle',
      '/404',
      '/acme/404',
      '/store-not-found',
    ];
    const answers: string[] = [];
    for (const path of paths) {
      const response = await request.get(path, { headers: { 'user-agent': GOOGLEBOT }, maxRedirects: 0 });
      answers.push(`${path} ${response.status()} ${(await response.text()).length}`);
    }
    expect(answers).toEqual(paths.map((path) => `${path} 404 0`));
    // People still get the error screen there.
    const person = await request.get(`/acme/order/${ORDER_UUID}`);
    expect(await person.text()).toContain(`Page not found: /acme/order/${ORDER_UUID}`);
  });

  test('a route rule redirects an old listing URL to the shop', async ({ page }) => {
    await page.goto('/acme/products');
    await expect(page).toHaveURL(/\/acme\/shop$/);
  });

  test('on the store’s own domain the same route rule redirects /products to /shop', async ({ page, baseURL }) => {
    const response = await page.goto(customDomainUrl(baseURL, '/products'));
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(customDomainUrl(baseURL, '/shop'));
    await expect(page).toHaveTitle(`${ACME} - Shop`);
  });

  for (const [where, entry] of [
    ['by slug', '/acme/payment-privacy'],
    ['on the store’s own domain', '/payment-privacy'],
  ] as const) {
    test(`a route rule sends the shopper to an external page by full page load (${where})`, async ({
      page,
      baseURL,
    }) => {
      const start = entry.startsWith('/acme') ? new URL(entry, baseURL).href : customDomainUrl(baseURL, entry);
      const external = page.waitForRequest('https://stripe.com/privacy');
      // Tests never leave the machine: the external page itself does not load here.
      await page.goto(start).catch(() => null);
      const request = await external;
      expect(request.isNavigationRequest()).toBe(true);
      expect(request.frame()).toBe(page.mainFrame());
      expect(request.redirectedFrom()?.url()).toBe(start);
    });
  }
});

test.describe('the restricted store', () => {
  test('/vip without access goes to /restricted, which offers the email form', async ({ page }, testInfo) => {
    await page.goto('/vip');
    await expect(page).toHaveURL(/\/restricted$/);
    await expect(page).toHaveTitle('Restricted access');
    await expect(page.getByText('The store has restricted access. Please contact Admin.')).toBeVisible();
    // The page names the store whose list it is.
    await expect(page.getByTestId('restricted-store')).toHaveText('VIP Reserve');
    await expect(page.getByRole('heading', { name: "Are you on VIP Reserve's list?" })).toBeVisible();
    await attachScreenshot(page, testInfo, 'page_restricted');

    await islandsHydrated(page);
    const email = page.getByLabel('Email');
    await email.focus();
    await email.blur();
    await expect(page.getByText('Email is required.')).toBeVisible();
    await email.fill('not-an-email');
    await email.blur();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  });

  test('sending the access form empty says it is incomplete; a wrong address says it is not filled out correctly', async ({
    page,
  }) => {
    await page.goto('/vip');
    await expect(page).toHaveURL(/\/restricted$/);
    await islandsHydrated(page);
    const send = page.getByRole('button', { name: 'Send me a link' });
    await send.click();
    await expect(page.getByText('Form incomplete.', { exact: true })).toBeVisible();
    await expect(page.getByText('Email is required.')).toBeVisible();

    await page.getByLabel('Email').fill('not-an-email');
    await send.click();
    await expect(page.getByText('Sorry, not all fields are filled out correctly.', { exact: true })).toBeVisible();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(page.getByText('Form incomplete.', { exact: true })).toHaveCount(0);

    // Fixed, the form-level message goes with the field's.
    await page.getByLabel('Email').fill('guest@example.com');
    await expect(page.getByText('Sorry, not all fields are filled out correctly.', { exact: true })).toHaveCount(0);
  });

  test('asking for a link confirms without saying whether the email is listed', async ({ page }) => {
    await page.goto('/vip');
    await expect(page).toHaveURL(/\/restricted$/);
    const ask = async (address: string) => {
      await islandsHydrated(page);
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

  test('after asking, the shopper can correct the email address and ask again', async ({ page }) => {
    await page.goto('/vip');
    await islandsHydrated(page);
    await page.getByLabel('Email').fill('vip@exmaple.com');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'vip@exmaple.com' })).toBeVisible();
    await page.getByRole('button', { name: 'Use another email address' }).click();
    const email = page.getByLabel('Email');
    await expect(email).toHaveValue('vip@exmaple.com');
    await expect(email).toBeFocused();
    await email.fill('vip@example.com');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'vip@example.com' })).toBeVisible();
  });

  test("on the store's own domain, /restricted still offers the email form", async ({ page, baseURL }) => {
    const port = new URL(baseURL!).port;
    const verify = page.waitForRequest((request) => request.url().includes('/allowed_users/verify'));
    await page.goto(`http://members.vip.test:${port}/`);
    await expect(page).toHaveURL(`http://members.vip.test:${port}/restricted`);
    await islandsHydrated(page);
    await page.getByLabel('Email').fill('guest@example.com');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    expect(new URL((await verify).url()).searchParams.get('custom_domain')).toBe('members.vip.test');
    await expect(page.getByRole('status').filter({ hasText: 'Check your inbox' })).toBeVisible();
  });

  test('the access link stores the cookie, passes /refresh and lands on the store without the uuid', async ({
    page,
  }, testInfo) => {
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

test.describe('a deploy removed an island’s code', () => {
  for (const path of ['/acme/cart', '/acme/checkout']) {
    test(`${path} reloads once when its island cannot load, and not again within 10 s`, async ({ page }) => {
      // The island's own chunk, as the page names it; it and Astro's retry of it fail as after a deploy.
      const html = await (await page.request.get(path)).text();
      const componentUrl = /<astro-island[^>]*\bcomponent-url="([^"]+)"/.exec(html)?.[1];
      expect(componentUrl).toBeTruthy();
      await page.route(
        (url) => url.pathname === componentUrl,
        (route) => route.abort(),
      );

      const loads: string[] = [];
      page.on('framenavigated', (frame) => frame === page.mainFrame() && loads.push(new URL(frame.url()).pathname));
      // Astro logs a hydration error it was left to handle: only after the guard refused a second reload.
      const loggedFailure = page.waitForEvent(
        'console',
        (message) => message.type() === 'error' && message.text().includes('Error hydrating'),
      );
      await page.goto(path);
      await loggedFailure;
      expect(loads).toEqual([path, path]);
      if (path === '/acme/cart') await expect(page.getByText('Loading your cart…')).toBeVisible();
    });
  }

  // The product page's add to cart is no island but a chunk its page script imports when idle
  // (docs/decisions/194-product-pages-without-react.md); the same guard catches its failed import.
  test('/acme/product/1 reloads once when its add-to-cart script cannot load, and not again within 10 s', async ({
    page,
  }) => {
    const chunk = /\/_astro\/add-to-cart\.[\w-]+\.js$/;
    let aborted = 0;
    await page.route(
      (url) => chunk.test(url.pathname),
      (route) => {
        aborted++;
        return route.abort();
      },
    );
    const loads: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && loads.push(new URL(frame.url()).pathname));
    // The failed import is left unhandled only after the guard refused a second reload.
    const unhandled = page.waitForEvent('pageerror', (error) => /dynamically imported module/i.test(error.message));
    await page.goto('/acme/product/1');
    await unhandled;
    expect(aborted).toBe(2);
    expect(loads).toEqual(['/acme/product/1', '/acme/product/1']);
    await expect(page.locator('.add-to-cart[data-fresh]')).toHaveCount(0);
  });
});

test.describe('the page frame', () => {
  // Where scrollbars take room (desktop Windows and Linux), a page that grows past the window while it loads
  // gains one: without a gutter kept for it, everything centred moved half its width sideways
  // (docs/decisions/227-scrollbar-gutter.md). Playwright hides scrollbars unless told not to.
  test('on a desktop whose scrollbars take room, nothing moves sideways when the page grows past the window', async ({
    baseURL,
  }) => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      ignoreDefaultArgs: ['--hide-scrollbars'],
    });
    try {
      const places = async (path: string, height: number) => {
        const page = await browser.newPage({ viewport: { width: 1350, height } });
        await page.goto(new URL(path, baseURL).href);
        const at = await page.evaluate(() => ({
          overflows: document.documentElement.scrollHeight > innerHeight,
          main: document.querySelector('main')!.getBoundingClientRect().left,
          nav: document.querySelector('.site-header__nav')!.getBoundingClientRect().left,
        }));
        await page.close();
        return at;
      };
      for (const path of ['/acme', '/acme/product/1', '/acme/cart']) {
        // A window taller than the page shows it whole, as it stood before the rest of it arrived.
        const short = await places(path, 6000);
        const long = await places(path, 300);
        expect(short.overflows).toBe(false);
        expect(long.overflows).toBe(true);
        expect({ path, main: long.main, nav: long.nav }).toEqual({ path, main: short.main, nav: short.nav });
      }
    } finally {
      await browser.close();
    }
  });
});

test.describe('the header', () => {
  // A browser may paint the header before its last parts are parsed; what is painted must not move
  // when they arrive. Taking the later parts out of the finished header shows where the earlier ones
  // stood at that first paint.
  for (const [device, width] of [
    ['phone', 390],
    ['tablet', 768],
    ['desktop', 1280],
  ] as const) {
    test(`on a ${device}, the name and the search field keep their places whether or not the links have arrived`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/acme');
      const places = () =>
        page.evaluate(() =>
          ['.site-header__home', '.site-search'].map((selector) => {
            const { x, y, width, height } = document.querySelector(selector)!.getBoundingClientRect();
            return { selector, x, y, width, height };
          }),
        );
      const whole = await places();
      await page.evaluate(() => document.querySelector('.site-header__nav')!.remove());
      expect(await places()).toEqual(whole);
    });
  }
});

test.describe('icons', () => {
  test('an icon that never arrives gives way to its fallback after 5 s; the page did not wait for it and nothing moved', async ({
    page,
  }) => {
    // The cart icon's request is left unanswered, as on a stalled network.
    await page.route('**/icons/cart.svg', () => undefined);
    await page.goto('/acme'); // resolves on the load event
    const cartLink = page.getByRole('banner').getByRole('link', { name: /^Cart/ });
    const icon = cartLink.locator('[data-icon="cart"]');
    // The page finished loading while the icon was still on its way.
    expect(await icon.getAttribute('data-icon-state')).toBeNull();
    const before = await cartLink.boundingBox();

    await expect(icon).toHaveAttribute('data-icon-state', 'fallback', { timeout: 15_000 });
    const givenUpAt = await page.evaluate(() => performance.now());
    expect(givenUpAt).toBeGreaterThanOrEqual(5000);
    expect(await cartLink.boundingBox()).toEqual(before);
    expect(await layoutShifts(page)).toEqual([]);
  });

  test('the header’s cart, the toasts and the form controls load their icons through the one loader', async ({
    page,
  }) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/icons/')) asked.push(new URL(request.url()).pathname);
    });
    await page.goto('/acme/product/1');
    await expect(page.getByRole('banner').locator('[data-icon="cart"]')).toHaveAttribute('data-icon-state', 'loaded');
    await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Added to cart' });
    await expect(toast.locator('[data-icon="success"]')).toHaveAttribute('data-icon-state', 'loaded');
    await expect(
      toast.getByRole('button', { name: 'Dismiss notification' }).locator('[data-icon="close"]'),
    ).toHaveAttribute('data-icon-state', 'loaded');

    await page.goto('/acme/checkout');
    const country = page.getByRole('group', { name: 'Contact and shipping' }).locator('.sf-select__control').first();
    await expect(country.locator('[data-icon="chevron-down"]')).toHaveAttribute('data-icon-state', 'loaded');
    await expect(
      page.getByRole('button', { name: /^Phone country:/ }).locator('[data-icon="chevron-down"]'),
    ).toHaveAttribute('data-icon-state', 'loaded');
    // One request per icon and page.
    expect(asked.filter((path) => path === '/icons/cart.svg')).toHaveLength(2);
    expect(asked.filter((path) => path === '/icons/chevron-down.svg')).toHaveLength(1);
  });
});
