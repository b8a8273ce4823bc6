/**
 * Image-led catalog (docs/decisions/184-responsive-image-derivatives.md): the browser is offered AVIF and
 * WebP derivatives at the widths each place needs and loads one of them, never the full-size original; the
 * store front leads with the store's hero picture and shows featured products and bundles.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { VIP_RECIPIENT } from '../../src/server/db/demo-data.ts';
import { VIEWPORTS } from './fixtures/viewports.ts';

/** The image's loaded file, once the browser has decoded it. */
async function loadedSource(image: Locator): Promise<string> {
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  return image.evaluate((img: HTMLImageElement) => img.currentSrc);
}

/** Paths of the images the page fetched. */
function imageRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'image') asked.push(new URL(request.url()).pathname + new URL(request.url()).search);
  });
  return asked;
}

for (const viewport of Object.values(VIEWPORTS)) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the product page’s main image is an AVIF derivative no narrower than it shows, loaded first', async ({
      page,
    }) => {
      const asked = imageRequests(page);
      await page.goto('/acme/product/1');
      const main = page.locator('.gallery__slide--0 img');
      const picture = page.locator('.gallery__slide--0 picture');
      await expect(picture.locator('source[type="image/avif"]')).toHaveAttribute('srcset', /\?w=\d+&fm=avif \d+w/);
      await expect(picture.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /\?w=\d+&fm=webp \d+w/);
      await expect(main).toHaveAttribute('width', '800');
      await expect(main).toHaveAttribute('height', '800');
      await expect(main).toHaveAttribute('loading', 'eager');
      await expect(main).toHaveAttribute('fetchpriority', 'high');

      const source = new URL(await loadedSource(main));
      expect(source.pathname).toBe('/images/demo/classic-tee-1.svg');
      expect(source.searchParams.get('fm')).toBe('avif');
      const shown = await main.evaluate((img: HTMLImageElement) => img.clientWidth * devicePixelRatio);
      expect(Number(source.searchParams.get('w'))).toBeGreaterThanOrEqual(shown);
      // The original (the SVG master) is never what the browser downloads.
      expect(asked.filter((path) => path.startsWith('/images/demo/classic-tee') && !path.includes('?'))).toEqual([]);
      const answer = await page.request.get(source.href);
      expect(answer.headers()['content-type']).toBe('image/avif');
    });

    test('the store front leads with its hero picture and shows featured products and bundles', async ({ page }) => {
      await page.goto('/acme');
      const hero = page.locator('.hero');
      await expect(hero.getByRole('heading', { level: 1, name: 'Acme Supply Co.' })).toBeVisible();
      const picture = hero.locator('.hero__image img');
      await expect(picture).toBeVisible();
      await expect(picture).toHaveAttribute('fetchpriority', 'high');
      expect(await loadedSource(picture)).toMatch(/\/images\/demo\/acme-hero\.svg\?w=\d+&fm=avif$/);
      // Beside the title it adds nothing a screen reader needs.
      await expect(picture).toHaveAttribute('alt', '');
      // Link previews get the hero as a WebP (preview crawlers read no SVG).
      const preview = (await page.locator('meta[property="og:image"]').getAttribute('content'))!;
      expect(preview).toMatch(/\/images\/demo\/acme-hero\.svg\?w=1280&fm=webp$/);
      expect((await page.request.get(preview)).headers()['content-type']).toBe('image/webp');

      await expect(page.getByRole('list', { name: 'Featured products' }).getByRole('link')).not.toHaveCount(0);
      const bundles = page.getByRole('list', { name: 'Featured bundles' });
      await expect(page.getByRole('heading', { level: 2, name: 'Featured bundles' })).toBeVisible();
      await expect(bundles.getByRole('link', { name: /Morning Coffee Kit/ })).toBeVisible();
      await expect(bundles.getByRole('link', { name: /Weekend Outdoors Pack/ })).toBeVisible();
    });

    test('the store front and a product page have no axe violations at all', async ({ page }) => {
      for (const path of ['/acme', '/acme/product/1']) {
        await page.goto(path);
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect(violations.map((v) => `${path}: ${v.id} (${v.impact})`)).toEqual([]);
      }
    });
  });
}

test('every catalog image on the store front and the shop loads as a derivative with its size set', async ({
  page,
}) => {
  for (const path of ['/acme', '/acme/shop']) {
    await page.goto(path);
    const images = page.locator('.card img');
    const count = await images.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const image = images.nth(i);
      await image.scrollIntoViewIfNeeded();
      expect(await image.getAttribute('width')).toBe('400');
      expect(await image.getAttribute('height')).toBe('400');
      expect(await loadedSource(image)).toMatch(/\?w=(320|640)&fm=avif$/);
    }
  }
});

test('a store without a hero picture shows its title and no empty image box', async ({ page }) => {
  await page.goto(`/vip?uuid=${VIP_RECIPIENT.uuid}`);
  await expect(page.getByRole('heading', { level: 1, name: 'VIP Reserve' })).toBeVisible();
  await expect(page.locator('.hero__image')).toHaveCount(0);
});

test('the cart’s thumbnails are derivatives too', async ({ page }) => {
  await page.goto('/acme/product/5');
  await expect(page.locator('.add-to-cart[data-fresh]')).toBeVisible();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added to cart' })).toBeVisible();
  await page.goto('/acme/cart');
  const thumb = page.locator('.cart-entry__image').first();
  expect(await loadedSource(thumb)).toMatch(/\?w=(160|240)&fm=avif$/);
});
