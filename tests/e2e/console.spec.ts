/**
 * The operator console's access, in Chromium: the demo owner signs in from the dev outbox's link,
 * invites an editor, who signs in from their own mail and sees the store but not its staff; an editor
 * of one store is refused another's console pages. Every page passes axe, on a phone too.
 */
import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, mailedLink, signInFromLink } from './fixtures/console-session.ts';
import { DevOutbox } from './fixtures/dev-outbox.ts';
import { PHONE } from './fixtures/viewports.ts';

const OWNER = 'owner@acme.example';

test('an owner signs in from the outbox, invites an editor, who sees the store but not its staff or another store', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  // Two browsers, seven pages and five axe runs: more than the default minute on a busy two-core machine.
  test.setTimeout(180_000);
  const outbox = new DevOutbox(request, baseURL!);
  const response = await page.goto('/admin');
  expect(response?.headers()['cache-control']).toBe('no-store');
  expect(response?.headers()['x-robots-tag']).toContain('noindex');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.getByRole('heading', { name: 'Sign in to the store console' })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('Form incomplete.')).toBeVisible();
  await page.getByLabel('Email').fill(OWNER);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  await signInFromLink(page, await mailedLink(outbox, OWNER, 'Your sign-in link'));
  await expectNoAxeViolations(page);
  const store = page.getByRole('listitem').filter({ hasText: 'Owner' });
  await store.getByRole('link', { name: /^Staff of/ }).click();
  await expect(page.getByRole('heading', { name: 'Staff', exact: true })).toBeVisible();
  await expect(page.getByText(`${OWNER} (you) — Owner`)).toBeVisible();
  // Every store page leads to the store's other sections, the current one marked.
  const ownerNav = page.getByRole('navigation', { name: 'Acme Supply Co. console' });
  await expect(ownerNav.getByRole('link')).toHaveText([
    'Products',
    'Collections',
    'Bundles',
    'Gift cards',
    'Orders',
    'Publish',
    'Settings',
    'Staff',
    'Audit log',
  ]);
  await expect(ownerNav.getByRole('link', { name: 'Staff' })).toHaveAttribute('aria-current', 'page');

  const editor = `editor-${Date.now()}@example.com`;
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await page.getByLabel('Email').fill(editor);
  await page.getByLabel('Role').selectOption('editor');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${editor} is invited as editor.` })).toBeVisible();
  await expect(page.getByText(`${editor} — Editor`)).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto('/admin/acme/audit');
  await expect(page.getByText(`"email":"${editor}"`)).toBeVisible();
  await expectNoAxeViolations(page);

  const editorContext = await browser.newContext({ viewport: PHONE });
  const editorPage = await editorContext.newPage();
  await signInFromLink(editorPage, await mailedLink(outbox, editor, 'You are invited'));
  await expect(editorPage.getByText('Editor', { exact: true })).toBeVisible();
  await expect(editorPage.getByRole('link', { name: /^Staff of/ })).toHaveCount(0);
  await expectNoAxeViolations(editorPage);
  const width = await editorPage.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);

  await editorPage.goto('/admin/acme/products');
  const editorNav = editorPage.getByRole('navigation', { name: 'Acme Supply Co. console' });
  await expect(editorNav.getByRole('link')).toHaveText([
    'Products',
    'Collections',
    'Bundles',
    'Gift cards',
    'Orders',
    'Publish',
  ]);
  await editorNav.getByRole('link', { name: 'Orders' }).click();
  await expect(editorPage.getByRole('heading', { name: 'Orders of Acme Supply Co.' })).toBeVisible();
  await expectNoAxeViolations(editorPage);

  await editorPage.goto('/admin/acme/staff');
  await expect(editorPage.getByRole('alert')).toContainText('Only the store’s owners can see this page.');
  for (const page of ['staff', 'audit']) {
    await editorPage.goto(`/admin/vip/${page}`);
    await expect(editorPage.getByRole('alert')).toContainText('This store does not exist or you have no access to it.');
  }
  // The API refuses too, whatever the page shows.
  const refused = await editorPage.request.get('/api/admin/stores/vip/staff');
  expect(refused.status()).toBe(404);

  await editorPage.goto('/admin');
  await editorPage.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(editorPage.getByRole('heading', { name: 'Sign in to the store console' })).toBeVisible();
  expect((await editorPage.request.get('/api/admin/me')).status()).toBe(401);
  await editorContext.close();
});

test('a spent or unknown link says so and offers a new one', async ({ page }) => {
  await page.goto('/admin/signin?token=this-token-was-never-issued-by-the-api');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'This sign-in link has expired or was already used. Ask for a new one.',
  );
  await expect(page.getByRole('link', { name: 'Ask for a new sign-in link' })).toBeVisible();
  await expectNoAxeViolations(page);
});
