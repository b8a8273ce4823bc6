/**
 * Filters and sorting on the shop, a collection and search results (docs/decisions/192-listing-facets.md): option
 * checkboxes with counts, a price range, sorts, all in the URL (reload and Back keep them), removable
 * active filters, and featured items when nothing matches. At desktop and phone size, no script.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { VIEWPORTS } from './fixtures/viewports.ts';

type Facets = { options: { name: string; values: { value: string; count: number }[] }[]; in_stock: number };
type ApiPage = {
  data: { type: string; attributes: { name: string; price: string } }[];
  meta: { total: number; facets: Facets };
};

const api = async (page: Page, query: string): Promise<ApiPage> => {
  const res = await page.request.get(`/api/store_front/acme/listings?per_page=48&${query}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as ApiPage;
};

const cards = (page: Page) => page.getByRole('list', { name: 'Products and bundles' }).getByRole('listitem');
const filters = (page: Page) => page.getByRole('group', { name: 'Filters' });

/** Opens the Filters disclosure when it is closed (no filter applied yet). */
async function openFilters(page: Page) {
  if (!(await filters(page).isVisible())) await page.getByText('Filters', { exact: true }).click();
  await expect(filters(page)).toBeVisible();
}

async function axe(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`the shop filters by size and price, sorts, and keeps it all in the URL (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/acme/shop');
    const all = await api(page, 'sort=name');
    const sizeM = all.meta.facets.options.find((o) => o.name === 'Size')!.values.find((v) => v.value === 'M')!;
    await openFilters(page);
    await axe(page);
    // The count beside "M" is the API's; ticking it applies at once.
    const m = filters(page).getByRole('checkbox', { name: `M (${sizeM.count})`, exact: true });
    await Promise.all([page.waitForURL(/option=Size%3AM/), m.check()]);
    await expect(page.getByRole('status')).toHaveText(new RegExp(`^\\s*${sizeM.count} items?`));
    await expect(cards(page)).toHaveCount(Math.min(sizeM.count, 48));
    await expect(page.getByRole('link', { name: 'Remove filter Size: M' })).toBeVisible();

    // A price range on top: Apply, counts and results as the API answers them.
    await filters(page).getByRole('spinbutton', { name: 'Min' }).fill('20');
    await filters(page).getByRole('spinbutton', { name: 'Max' }).fill('90');
    await Promise.all([page.waitForURL(/price_max=90/), filters(page).getByRole('button', { name: 'Apply' }).click()]);
    const expected = await api(page, 'sort=name&option=Size:M&price_min=20&price_max=90');
    expect(expected.meta.total).toBeGreaterThan(0);
    await expect(page.getByRole('status')).toHaveText(new RegExp(`^\\s*${expected.meta.total} items?`));
    await expect(cards(page).locator('.card__name')).toHaveText(expected.data.map((e) => e.attributes.name));
    for (const value of expected.meta.facets.options.find((o) => o.name === 'Size')!.values) {
      await expect(
        filters(page).getByRole('checkbox', { name: `${value.value} (${value.count})`, exact: true }),
      ).toHaveCount(1);
    }
    await axe(page);

    // Price high to low: products and bundles together, as the API sorts them.
    await Promise.all([page.waitForURL(/sort=-price/), page.getByLabel('Sort by').selectOption('-price')]);
    const byPrice = await api(page, 'sort=-price&option=Size:M&price_min=20&price_max=90');
    await expect(cards(page).locator('.card__name')).toHaveText(byPrice.data.map((e) => e.attributes.name));
    const filteredUrl = page.url();

    // Reload keeps it; Back returns to the filter state before.
    await page.reload();
    await expect(page.getByLabel('Sort by')).toHaveValue('-price');
    await expect(filters(page).getByRole('spinbutton', { name: 'Min' })).toHaveValue('20');
    await expect(filters(page).getByRole('checkbox', { name: /^M \(/ })).toBeChecked();
    await page.goBack();
    await expect(page).toHaveURL(/price_max=90/);
    await expect(page).not.toHaveURL(/sort=-price/);
    await expect(page.getByLabel('Sort by')).toHaveValue('name');
    await page.goForward();
    expect(page.url()).toBe(filteredUrl);

    // Newest, with every entry of the store.
    await page.goto('/acme/shop?sort=newest');
    const newest = await api(page, 'sort=newest');
    await expect(cards(page).locator('.card__name')).toHaveText(newest.data.map((e) => e.attributes.name));
  });

  test(`removing filters, and nothing matching offers featured items (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/acme/shop?option=Size%3AM&in_stock=true');
    await expect(page.getByRole('link', { name: 'Remove filter In stock' })).toBeVisible();
    await page.getByRole('link', { name: 'Remove filter Size: M' }).click();
    await expect(page).toHaveURL(/\/acme\/shop\?in_stock=true$/);
    await page.getByRole('link', { name: 'Clear all' }).click();
    await expect(page).toHaveURL(/\/acme\/shop$/);

    await page.goto('/acme/shop?price_min=999999');
    await expect(page.getByText('No products match these filters.')).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Featured products and bundles' }).getByRole('listitem').first(),
    ).toBeVisible();
    await axe(page);
    await page.getByRole('link', { name: 'Remove the filters' }).click();
    await expect(page).toHaveURL(/\/acme\/shop$/);
  });

  test(`a collection page with a filter (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/acme/collections/apparel');
    const res = await page.request.get('/api/store_front/acme/collections/apparel/listings?option=Size:M');
    const expected = (await res.json()) as ApiPage;
    await openFilters(page);
    await Promise.all([
      page.waitForURL(/option=Size%3AM/),
      filters(page).getByRole('checkbox', { name: /^M \(/ }).check(),
    ]);
    await expect(page.getByRole('status')).toHaveText(new RegExp(`^\\s*${expected.meta.total} items?`));
    await expect(cards(page).locator('.card__name')).toHaveText(expected.data.map((e) => e.attributes.name));
    await axe(page);
  });

  test(`search results filtered by size, and a filter leaving nothing offers to remove it (${name})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/acme/search?q=tee');
    const res = await page.request.get('/api/store_front/acme/search?q=tee&per_page=48&option=Size:M');
    const expected = (await res.json()) as ApiPage;
    expect(expected.meta.total).toBeGreaterThan(0);
    await openFilters(page);
    await Promise.all([
      page.waitForURL(/q=tee.*option=Size%3AM|option=Size%3AM.*q=tee/),
      filters(page).getByRole('checkbox', { name: /^M \(/ }).check(),
    ]);
    await expect(page.getByRole('status')).toHaveText(new RegExp(`^\\s*${expected.meta.total} items? matching`));
    await expect(
      page.getByRole('list', { name: 'Search results' }).getByRole('listitem').locator('.card__name'),
    ).toHaveText(expected.data.map((e) => e.attributes.name));
    await axe(page);

    await page.goto('/acme/search?q=tee&price_min=999999');
    await expect(page.getByText('No products match these filters.')).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Featured products and bundles' }).getByRole('listitem').first(),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Remove the filters' }).click();
    await expect(page).toHaveURL(/\/acme\/search\?q=tee$/);
    await expect(page.getByRole('list', { name: 'Search results' }).getByRole('listitem').first()).toBeVisible();
  });
}
