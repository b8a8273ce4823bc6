/**
 * A restricted store's access in the console, in Chromium (docs/decisions/204-recipients-and-domain-tokens.md):
 * the owner adds a recipient on a phone; the mailed link opens the store in a new browser; removing the
 * recipient shuts that browser out; a CSV import reports its bad row. A public store's owner is not offered the
 * page. Every state passes axe and fits 390 px.
 */
import { expect, test } from '@playwright/test';
import { expectFitsWidth, expectNoAxeViolations, signedIn } from './fixtures/console-session.ts';
import { DevOutbox } from './fixtures/dev-outbox.ts';
import { DESKTOP, PHONE } from './fixtures/viewports.ts';

const VIP_OWNER = 'owner@vip.example';

test('an owner invites a recipient whose link opens the store, removes them, and imports a list with a bad row', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const owner = await signedIn(browser, baseURL!, VIP_OWNER, PHONE);
  await owner.getByRole('link', { name: 'Access to VIP Reserve' }).click();
  await expect(owner.getByRole('heading', { level: 1, name: 'Access to VIP Reserve' })).toBeVisible();
  // The demo's own recipient is listed.
  await expect(owner.getByRole('list', { name: 'Allowed recipients' })).toContainText('guest@example.com');
  await expectNoAxeViolations(owner);
  await expectFitsWidth(owner, PHONE.width);

  const guest = `guest-${Date.now()}@example.com`;
  const addForm = owner.getByRole('form', { name: 'Add a recipient' });
  await addForm.getByLabel('Email').fill(guest);
  await addForm.getByRole('button', { name: 'Add and send invitation' }).click();
  await expect(owner.getByRole('status').filter({ hasText: `${guest} is on the list.` })).toBeVisible();
  await expect(owner.getByRole('list', { name: 'Allowed recipients' })).toContainText(guest);

  const mail = await new DevOutbox(owner.request, baseURL!).find(guest, 'You are invited to VIP Reserve');
  const link = /https?:\/\/\S+\?uuid=[\w-]+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  const visitor = await browser.newContext({ viewport: DESKTOP });
  const shopper = await visitor.newPage();
  await shopper.goto(link!);
  await expect(shopper.getByRole('heading', { level: 1, name: 'VIP Reserve' })).toBeVisible();
  const home = new URL('/', shopper.url()).href;
  expect(new URL(shopper.url()).search).toBe('');

  await owner.getByRole('button', { name: `Remove: ${guest}` }).click();
  await expect(owner.getByRole('status').filter({ hasText: `${guest} can no longer enter the store.` })).toBeVisible();
  await expect(owner.getByRole('list', { name: 'Allowed recipients' })).not.toContainText(guest);
  await shopper.goto(home);
  await expect(shopper).toHaveURL(/\/restricted$/);
  await expect(shopper.getByRole('heading', { name: 'Restricted access' })).toBeVisible();
  await visitor.close();

  const imported = `imported-${Date.now()}@example.com`;
  await owner.getByLabel('CSV file of email addresses').setInputFiles({
    name: 'guests.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`email\n${imported}\nnot-an-email\n`),
  });
  await owner.getByRole('button', { name: 'Import', exact: true }).click();
  const report = owner.getByRole('status').filter({ hasText: 'Added 1 address.' });
  await expect(report).toContainText('1 row is not imported.');
  await expect(report.getByRole('list', { name: 'Rows not imported' })).toHaveText(
    'Row 3: “not-an-email” — Please enter a valid email address.',
  );
  await expect(owner.getByRole('list', { name: 'Allowed recipients' })).toContainText(imported);
  await expectNoAxeViolations(owner);
  await expectFitsWidth(owner, PHONE.width);
  await owner.context().close();

  // A public store has no access lists: its owner is not offered the page.
  const acmeOwner = await signedIn(browser, baseURL!, 'owner@acme.example', DESKTOP);
  await expect(acmeOwner.getByRole('link', { name: /^Staff of/ })).toBeVisible();
  await expect(acmeOwner.getByRole('link', { name: /^Access to/ })).toHaveCount(0);
  await acmeOwner.context().close();
});
