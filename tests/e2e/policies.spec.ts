/**
 * The store's footer and policy pages (docs/decisions/182-store-policies.md): on every store page, at
 * desktop and phone size, prerendered for public stores, unprefixed on the store's own domain.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { VIEWPORTS } from './fixtures/viewports.ts';

const port = Number(process.env.E2E_PORT ?? 4399);
const buildsDir = path.resolve(process.env.BUILDS_DIR ?? `.data-e2e-${port}-builds`);

for (const viewport of Object.values(VIEWPORTS)) {
  test(`every store page ends with the store's policies and contact, each policy its own page (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    for (const path of ['/acme', '/acme/shop', '/acme/product/1', '/acme/cart', '/acme/checkout']) {
      await page.goto(path);
      const footer = page.getByRole('contentinfo');
      const policies = footer.getByRole('navigation', { name: 'Store policies' });
      await expect(policies.getByRole('link')).toHaveText(['Shipping', 'Returns', 'Privacy', 'Terms']);
      await expect(footer.getByRole('link', { name: 'help@acme.test' })).toHaveAttribute(
        'href',
        'mailto:help@acme.test',
      );
    }

    await page.getByRole('contentinfo').getByRole('link', { name: 'Returns' }).click();
    await expect(page).toHaveURL(/\/acme\/policies\/returns$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Returns and refunds' })).toBeVisible();
    await expect(page.getByText('Return anything unused within 30 days')).toBeVisible();
    await expect(page).toHaveTitle('Acme Supply Co. - Returns and refunds');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('policy pages are prerendered, listed in the sitemap, and unprefixed on the store’s own domain', async ({
  page,
  request,
}) => {
  const html = await readFile(path.join(buildsDir, 'current', 'acme', 'policies', 'shipping', 'index.html'), 'utf8');
  expect(html).toContain('Shipping policy');
  const sitemap = await (await request.get('/acme/sitemap.xml')).text();
  expect(sitemap).toContain('/policies/privacy</loc>');

  await page.goto(`http://shop.acme.test:${port}/`);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click();
  await expect(page).toHaveURL(`http://shop.acme.test:${port}/policies/privacy`);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();

  expect((await request.get('/acme/policies/cookies')).status()).toBe(404);
});
