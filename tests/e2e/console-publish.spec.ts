/**
 * Publishing from the console, in Chromium (docs/decisions/202-publishing-builds.md): the owner opens the
 * publish page from the store's home, publishes, watches the build's progress, and the new build goes live
 * and heads the history; the page passes axe and fits a phone.
 */
import { expect, test } from '@playwright/test';
import { expectFitsWidth, expectNoAxeViolations, signedIn } from './fixtures/console-session.ts';
import { DESKTOP, PHONE } from './fixtures/viewports.ts';

const OWNER = 'owner@acme.example';
const STORE_TITLE = 'Acme Supply Co.';

test('an owner publishes from the console, follows the progress, and the new build is live and first in the history', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const page = await signedIn(browser, baseURL!, OWNER, DESKTOP);
  const liveId = async () =>
    ((await (await page.request.get(`/builds/latest.json?${Date.now()}`)).json()) as { id: string }).id;
  const before = await liveId();

  await page.getByRole('link', { name: `Publish ${STORE_TITLE}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Publish ${STORE_TITLE}` })).toBeVisible();
  const history = page.getByRole('table', { name: 'Recent builds, newest first' });
  // The builds so far: at least the start-up snapshot (other specs on this server may have published since).
  await expect(history.getByRole('row').nth(1)).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('button', { name: 'Publishing…' })).toBeDisabled();
  await expect(page.getByRole('progressbar', { name: 'Build progress' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Published: \d+ pages are live\./ })).toBeVisible({
    timeout: 120_000,
  });
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish' })).toBeEnabled();

  const after = await liveId();
  expect(after).not.toBe(before);
  const newest = history.getByRole('row').nth(1);
  await expect(newest).toContainText('Live');
  await expect(newest).toContainText(OWNER);
  await expectNoAxeViolations(page);
});

test('the publish page passes axe and fits a phone', async ({ browser, baseURL }) => {
  const page = await signedIn(browser, baseURL!, OWNER, PHONE);
  await page.goto('/admin/acme/publish');
  await expect(page.getByRole('table', { name: 'Recent builds, newest first' })).toBeVisible();
  await expectFitsWidth(page, PHONE.width);
  await expectNoAxeViolations(page);
});
