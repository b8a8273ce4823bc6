/**
 * One full-page screenshot per page type and viewport, kept under test-results/screenshots/ (CI keeps the
 * folder; the README's pictures come from it). Each page must also render its heading without a console
 * error and, on a phone, without scrolling sideways.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { CartApi, SLUG } from './fixtures/cart-page.ts';
import { islandsHydrated } from './fixtures/islands.ts';
import { VIEWPORTS } from './fixtures/viewports.ts';

type PageType = { name: string; path: (order: string) => string; heading: RegExp };

const PAGE_TYPES: PageType[] = [
  { name: 'store-front', path: () => `/${SLUG}`, heading: /Acme Supply Co\./ },
  { name: 'shop', path: () => `/${SLUG}/shop`, heading: /Shop|All products/i },
  { name: 'search', path: () => `/${SLUG}/search?q=coffee`, heading: /Search/ },
  { name: 'product', path: () => `/${SLUG}/product/1`, heading: /Classic Cotton Tee/ },
  { name: 'bundle', path: () => `/${SLUG}/product-bundle/1`, heading: /Morning Coffee Kit/ },
  { name: 'collection', path: () => `/${SLUG}/collections/home`, heading: /Home/ },
  { name: 'cart', path: () => `/${SLUG}/cart`, heading: /Your cart/ },
  { name: 'checkout', path: () => `/${SLUG}/checkout`, heading: /Checkout/ },
  { name: 'order-confirmation', path: (order) => `/${SLUG}/order-confirmation/${order}`, heading: /Thank you/ },
  { name: 'order', path: (order) => `/${SLUG}/order/${order}`, heading: /Order A-/ },
  { name: 'restricted', path: () => '/vip', heading: /Restricted access/ },
  { name: 'not-found', path: () => `/${SLUG}/no-such-page`, heading: /./ },
];

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page is wider than the screen').toBeLessThanOrEqual(0);
}

for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
  test(`every page type at ${viewportName} size (${viewport.width} px): a screenshot, its heading, no console error`, async ({
    page,
    baseURL,
  }, testInfo) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (
        message.type() === 'error' &&
        !message.text().includes('Failed to load resource: the server responded with a status of 404')
      )
        errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));

    const client = new CartApi(page.request, page.context(), baseURL!);
    const order = (
      await new CartApi(page.request, page.context(), baseURL!).buy((await client.firstVariant()).variant.id, 1)
    ).orderDetails.id;
    await client.seedProductAndBundle();

    for (const type of PAGE_TYPES) {
      await page.goto(type.path(order));
      await expect(page.getByRole('heading', { level: 1 }).first(), type.name).toHaveText(type.heading);
      await islandsHydrated(page);
      if (viewportName === 'phone') await noSidewaysScroll(page);
      await page.screenshot({
        path: path.join(testInfo.project.outputDir, 'screenshots', `${type.name}-${viewportName}.png`),
        fullPage: true,
      });
      if (type.name === 'checkout' && viewportName === 'phone') {
        // The README shows the phone checkout with its order summary open: the items and their pictures.
        await page.getByRole('button', { name: /Show order summary/ }).click();
        const thumbnails = page.getByRole('list', { name: 'Items in your order' }).locator('img');
        await expect(thumbnails.first()).toBeVisible();
        await expect
          .poll(() =>
            thumbnails.evaluateAll((all: HTMLImageElement[]) =>
              all.every((img) => img.complete && img.naturalWidth > 0),
            ),
          )
          .toBe(true);
        await page.screenshot({
          path: path.join(testInfo.project.outputDir, 'screenshots', 'checkout-summary-phone.png'),
          fullPage: true,
        });
      }
    }
    expect(errors).toEqual([]);
  });
}
