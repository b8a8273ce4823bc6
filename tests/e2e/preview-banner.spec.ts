/**
 * The preview banner, in Chromium (docs/decisions/213-publishing-for-editors-and-shoppers.md): an editor
 * browsing a preview sees it on every previewed page, and only there; Leave preview returns to the live
 * pages; Go live from the banner, by keyboard, makes the build live for shoppers. The live build is put
 * back at the end (later specs rely on the demo store).
 */
import { expect, test } from '@playwright/test';
import { expectFitsWidth, expectNoAxeViolations } from './fixtures/console-session.ts';
import { buildOf, buildPreview, editorAndShopper, openPreview } from './fixtures/publish.ts';
import { DESKTOP, PHONE } from './fixtures/viewports.ts';

test('an editor previewing a build sees the banner on every previewed page, leaves the preview, and makes the build live from the banner', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { editor, shopper, live } = await editorAndShopper(browser, baseURL!, '/acme/shop');
  const previewed = await openPreview(editor, await buildPreview(editor), live);

  const banner = editor.getByRole('region', { name: 'Build preview' });
  await expect(banner).toContainText(`Preview of build ${previewed}, built `);
  await expect(banner).toContainText('Shoppers still see the live build.');
  await expect(banner.getByRole('link', { name: 'Back to Publish' })).toHaveAttribute('href', '/admin/acme/publish');
  await expectNoAxeViolations(editor);

  // Every previewed page has it; shoppers' pages never do.
  await editor.goto('/acme/shop');
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Go live' })).toBeVisible();
  await shopper.reload();
  expect(await buildOf(shopper)).toBe(live);
  await expect(shopper.getByRole('region', { name: 'Build preview' })).toHaveCount(0);

  // On a phone it wraps within the width and passes axe.
  await editor.setViewportSize(PHONE);
  await expect(banner.getByRole('link', { name: 'Leave preview' })).toBeVisible();
  await expectFitsWidth(editor, PHONE.width);
  await expectNoAxeViolations(editor);
  await editor.setViewportSize(DESKTOP);

  // Leave preview: back to the live version of the same page.
  await banner.getByRole('link', { name: 'Leave preview' }).click();
  await expect(editor).toHaveURL(/\/acme\/shop$/);
  await expect(banner).toHaveCount(0);
  expect(await buildOf(editor)).toBe(live);

  // Go live from the banner, by keyboard.
  await editor.goto(`/admin/acme/preview/${previewed}`);
  await editor.goto('/acme/shop');
  const goLive = banner.getByRole('button', { name: 'Go live' });
  await goLive.focus();
  await editor.keyboard.press('Enter');
  await expect(banner).toContainText('This build is live: shoppers see it too.');
  await expect(editor).toHaveURL(/\/acme\/shop$/);
  await expect(goLive).toHaveCount(0);
  await shopper.reload();
  expect(await buildOf(shopper)).toBe(previewed);

  // Put the build live before back (by id: other specs may have left newer builds), and end the preview.
  const me = (await (await editor.request.get('/api/admin/me')).json()) as { csrf_token: string };
  const back = await editor.request.post(`/api/admin/stores/acme/builds/${live}/live`, {
    headers: { origin: new URL(baseURL!).origin, 'x-csrf-token': me.csrf_token },
  });
  expect(back.status()).toBe(200);
  await shopper.reload();
  expect(await buildOf(shopper)).toBe(live);
  await banner.getByRole('link', { name: 'Leave preview' }).click();
  await expect(banner).toHaveCount(0);
});
