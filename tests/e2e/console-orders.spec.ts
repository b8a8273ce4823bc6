/**
 * The console's orders in Chromium (docs/decisions/198-console-orders.md): the demo owner finds an order
 * by its number, refunds part of it and puts its line back in stock, and marks another fulfilled; the
 * shopper's order pages and mails (the dev outbox) say so. At desktop and phone width, axe clean.
 */
import { expect, test } from '@playwright/test';
import { CartApi } from './fixtures/cart-page.ts';
import { expectNoAxeViolations, mailedLink, signInFromLink } from './fixtures/console-session.ts';
import { DevOutbox } from './fixtures/dev-outbox.ts';
import { VIEWPORTS } from './fixtures/viewports.ts';

const OWNER = 'owner@acme.example';
const SHOPPER = 'grace@example.com';

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`an owner refunds part of one order and marks another fulfilled; the shopper's pages and mails show it (${name})`, async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    // Two orders, sign-in, four console pages with axe, two shopper pages: beyond a minute on a busy machine.
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const shopper = new CartApi(request, context, baseURL!);
    const { variant } = await shopper.firstVariant();
    const refunded = (await shopper.buy(variant.id, 2)).orderDetails;
    const shipped = (await shopper.buy(variant.id, 1)).orderDetails;
    const outbox = new DevOutbox(request, baseURL!);

    const asked = await request.post('/api/admin/sign_in', { data: { email: OWNER }, headers: { origin: baseURL! } });
    expect(asked.status()).toBe(202);
    await signInFromLink(page, await mailedLink(outbox, OWNER, 'Your sign-in link'));
    await page.getByRole('link', { name: /^Orders of/ }).click();
    await expect(page.getByRole('heading', { name: 'Orders of Acme Supply Co.' })).toBeVisible();
    await expect(page.getByRole('table').getByRole('link', { name: shipped.number })).toBeVisible();
    await expectNoAxeViolations(page);

    // The filters are the page's URL: a search by number leaves one row, and a reload keeps it.
    await page.getByLabel('Order number').fill(refunded.number);
    await page.getByRole('button', { name: 'Show orders' }).click();
    await expect(page).toHaveURL(new RegExp(`number=${refunded.number}`));
    await page.reload();
    await expect(page.getByRole('status').filter({ hasText: /^1 order$/ })).toBeVisible();
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(viewport.width);
    await page.getByRole('link', { name: refunded.number }).click();

    await expect(page.getByRole('heading', { name: `Order ${refunded.number}` })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.getByLabel('Amount to refund').fill('100000');
    await page.getByRole('button', { name: 'Refund' }).click();
    await expect(page.getByText(`You can refund at most $${refunded.total}.`)).toBeVisible();
    await page.getByLabel('Amount to refund').fill('5.00');
    await page.getByRole('checkbox', { name: /^2 × / }).check();
    await page.getByRole('button', { name: 'Refund' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Refunded $5.00.' })).toBeVisible();
    await expect(page.getByText('Partly refunded: ')).toBeVisible();
    await expect(page.getByText('— back in stock')).toBeVisible();
    await expectNoAxeViolations(page);

    await page.goto(`/admin/acme/orders?q=${shipped.number}`);
    await page.getByRole('link', { name: shipped.number }).click();
    await expect(page.getByRole('heading', { name: `Order ${shipped.number}` })).toBeVisible();
    await page.getByRole('button', { name: 'Mark fulfilled' }).click();
    await expect(page.getByText('Carrier is required.')).toBeVisible();
    await page.getByLabel('Carrier').fill('UPS');
    await page.getByLabel('Tracking number').fill('1Z999AA10123456784');
    await page.getByRole('button', { name: 'Mark fulfilled' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Marked fulfilled' })).toBeVisible();
    await expect(page.getByText('Shipped with UPS, tracking number 1Z999AA10123456784.')).toBeVisible();
    await expectNoAxeViolations(page);

    await page.goto(`/acme/order/${refunded.id}`);
    await expect(page.getByTestId('order-status')).toHaveText('Partly refunded: $5.00');
    await expect(page.getByTestId('shipping-status')).toHaveText('Not shipped yet');
    await page.goto(`/acme/order/${shipped.id}`);
    await expect(page.getByTestId('order-status')).toHaveText('Paid');
    await expect(page.getByTestId('shipping-status')).toHaveText(
      'Shipped with UPS, tracking number 1Z999AA10123456784',
    );
    await expectNoAxeViolations(page);

    const refundMail = await outbox.find(SHOPPER, `A refund of $5.00 for your`);
    expect(refundMail.subject).toContain(refunded.number);
    expect(refundMail.text).toContain('Back to your card');
    const shippedMail = await outbox.find(SHOPPER, `order ${shipped.number} has shipped`);
    expect(shippedMail.text).toContain('1Z999AA10123456784');
    expect(shippedMail.html).toContain('UPS');
  });
}
