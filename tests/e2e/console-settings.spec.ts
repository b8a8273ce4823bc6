/**
 * A store's settings in the console, in Chromium (docs/decisions/203-console-store-settings.md): an owner
 * changes the title and a policy, which the store's API answers show at once, is pointed at publishing for
 * the static pages, and the page passes axe and fits a phone; an editor has no settings link and is refused.
 */
import { expect, test, type Page } from '@playwright/test';
import type { ConsoleStoreSettings } from '../../src/lib/contract/answers.ts';
import { editorOf, expectFitsWidth, expectNoAxeViolations, signedIn } from './fixtures/console-session.ts';
import { DESKTOP, PHONE } from './fixtures/viewports.ts';

const OWNER = 'owner@acme.example';
const STORE_TITLE = 'Acme Supply Co.';

/** The settings as they are now, through the owner's session. */
async function settingsOf(page: Page): Promise<ConsoleStoreSettings> {
  const answer = await page.request.get('/api/admin/stores/acme/settings');
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: ConsoleStoreSettings }).data;
}

/** Puts `settings` back over whatever is saved now: the other specs on this server expect the demo store. */
async function restore(page: Page, baseURL: string, settings: ConsoleStoreSettings) {
  const me = (await (await page.request.get('/api/admin/me')).json()) as { csrf_token: string };
  const { version } = await settingsOf(page);
  const put = await page.request.put('/api/admin/stores/acme/settings', {
    data: { ...settings, version },
    headers: { origin: baseURL, 'x-csrf-token': me.csrf_token },
  });
  expect(put.status()).toBe(200);
}

test('an owner changes the title and a policy; the store’s API shows them, and the page says to publish', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const owner = await signedIn(browser, baseURL!, OWNER, DESKTOP);
  const original = await settingsOf(owner);
  try {
    await owner.getByRole('link', { name: `Settings of ${STORE_TITLE}` }).click();
    await expect(owner.getByRole('heading', { level: 1, name: `Settings of ${STORE_TITLE}` })).toBeVisible();
    const title = owner.getByRole('textbox', { name: 'Title', exact: true });
    await expect(title).toHaveValue(STORE_TITLE);
    await expectNoAxeViolations(owner);

    // A refused value is explained next to its field, and nothing is saved.
    const domain = owner.getByLabel('Custom domain');
    await domain.fill('localhost');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await expect(domain).toHaveAccessibleDescription(/^Custom domain must be a host name of three or more labels/);
    await expect(domain).toHaveAttribute('aria-invalid', 'true');
    const rate = owner.getByLabel('Rate 1, %');
    await rate.fill('eight');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await expect(rate).toHaveAccessibleDescription('Rate must be a percentage from 0 to 100, like 8.25.');
    expect((await settingsOf(owner)).version).toBe(original.version);
    await expectNoAxeViolations(owner);

    await domain.fill(original.custom_domain ?? '');
    await rate.fill('5');
    await title.fill('Acme Goods Co.');
    await owner.getByLabel('Returns and refunds (HTML)').fill('<p>Ninety days, no questions.</p><script>x()</script>');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    const saved = owner.getByRole('status').filter({ hasText: 'Saved.' });
    await expect(saved).toBeVisible();
    await expect(saved.getByRole('link', { name: 'Publish to show this on the storefront' })).toHaveAttribute(
      'href',
      '/admin/acme/publish',
    );
    await expect(owner.getByLabel('Returns and refunds (HTML)')).toHaveValue('<p>Ninety days, no questions.</p>');

    const store = (await (await owner.request.get('/api/store_front/acme')).json()) as {
      data: { attributes: { title: string } };
    };
    expect(store.data.attributes.title).toBe('Acme Goods Co.');
    const policy = (await (await owner.request.get('/api/store_front/acme/policies/returns')).json()) as {
      data: { attributes: { bodyHtml: string } };
    };
    expect(policy.data.attributes.bodyHtml).toBe('<p>Ninety days, no questions.</p>');

    await owner.setViewportSize(PHONE);
    await expectFitsWidth(owner, PHONE.width);
    await expectNoAxeViolations(owner);
  } finally {
    await restore(owner, baseURL!, original);
  }
});

test('an editor has no settings link, and the settings page and API refuse them', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const owner = await signedIn(browser, baseURL!, OWNER, DESKTOP);
  const editor = await signedIn(browser, baseURL!, await editorOf(owner, baseURL!), PHONE);
  await expect(editor.getByRole('link', { name: `Products of ${STORE_TITLE}` })).toBeVisible();
  await expect(editor.getByRole('link', { name: `Settings of ${STORE_TITLE}` })).toHaveCount(0);

  await editor.goto('/admin/acme/settings');
  await expect(editor.getByRole('alert')).toContainText('Only the store’s owners can see this page.');
  await expect(editor.getByRole('textbox', { name: 'Title', exact: true })).toHaveCount(0);
  const answer = await editor.request.get('/api/admin/stores/acme/settings');
  expect(answer.status()).toBe(403);
  expect(((await answer.json()) as { message: string }).message).toBe('Only the store’s owners can do this.');
});
