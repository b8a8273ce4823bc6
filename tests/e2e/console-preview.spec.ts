/**
 * Preview, go live and rollback from the console, in Chromium (docs/decisions/208-preview-and-live-build.md):
 * an editor builds a preview, browses it while shoppers still get the live build, makes it live, and rolls
 * back; the shopper's page names the build it came from each time.
 */
import { expect, test } from '@playwright/test';
import { expectFitsWidth, expectNoAxeViolations, signedIn } from './fixtures/console-session.ts';
import { buildOf, buildPreview, editorAndShopper, openPreview } from './fixtures/publish.ts';
import { PHONE } from './fixtures/viewports.ts';

const OWNER = 'owner@acme.example';

test('an editor builds a preview, opens it, makes it live and rolls back; the shopper’s page follows the live build', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { editor, shopper, live: before } = await editorAndShopper(browser, baseURL!, '/acme');

  const newest = await buildPreview(editor);
  await expect(newest).toContainText('Ready');
  await expect(newest).toContainText(/\d+ new, \d+ changed, \d+ removed/);
  await expectNoAxeViolations(editor);

  // The preview: the store as the new build has it, for this session only.
  const previewed = await openPreview(editor, newest, before);
  await shopper.reload();
  expect(await buildOf(shopper)).toBe(before);

  await editor.goto('/admin/acme/publish');
  await newest.getByRole('button', { name: /^Go live to the build of/ }).click();
  await expect(editor.getByRole('status').filter({ hasText: /^Live: the build of .* is live\.$/ })).toBeVisible();
  await expect(newest).toContainText('Live');
  await shopper.reload();
  expect(await buildOf(shopper)).toBe(previewed);

  // Back to the build live before, in one action.
  await editor
    .getByRole('table', { name: 'Recent builds, newest first' })
    .getByRole('button', { name: /^Roll back to the build of/ })
    .first()
    .click();
  await expect(
    editor.getByRole('status').filter({ hasText: /^Rolled back: the build of .* is live\.$/ }),
  ).toBeVisible();
  await expect(newest).toContainText('Rolled back');
  await shopper.reload();
  expect(await buildOf(shopper)).toBe(before);

  // Ending the preview: the editor's pages are the live build's again.
  await editor.getByRole('link', { name: 'End preview' }).click();
  await expect(editor.getByRole('heading', { level: 1, name: /^Publish / })).toBeVisible();
  await editor.goto('/acme');
  expect(await buildOf(editor)).toBe(before);
});

test('the publish page with its build actions and auto-publish passes axe and fits a phone', async ({
  browser,
  baseURL,
}) => {
  const page = await signedIn(browser, baseURL!, OWNER, PHONE);
  await page.goto('/admin/acme/publish');
  await expect(page.getByRole('button', { name: 'Build preview' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Recent builds, newest first' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Auto-publish' });
  const quiet = form.getByRole('textbox', { name: 'Quiet period, seconds (5–3600)' });
  await expect(quiet).toHaveValue('30');
  // The Save button is as wide as its label, not stretched across the form.
  const [formBox, saveBox] = await Promise.all([
    form.boundingBox(),
    form.getByRole('button', { name: 'Save' }).boundingBox(),
  ]);
  expect(saveBox!.width).toBeLessThan(formBox!.width / 2);
  await quiet.fill('2');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('The quiet period must be a whole number of seconds from 5 to 3600.')).toBeVisible();
  await expectFitsWidth(page, PHONE.width);
  await expectNoAxeViolations(page);
  await form.getByRole('checkbox', { name: 'Publish catalog changes by themselves' }).check();
  await quiet.fill('45');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Auto-publish is on' })).toContainText('after 45 s');
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Publish catalog changes by themselves' })).toBeChecked();
  // Off again: other specs on this server edit the catalog.
  await page.getByRole('checkbox', { name: 'Publish catalog changes by themselves' }).uncheck();
  await page.getByRole('form', { name: 'Auto-publish' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Auto-publish is off.' })).toBeVisible();
});
