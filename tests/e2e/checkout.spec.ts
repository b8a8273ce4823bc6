/**
 * The buying journey on the demo store (docs/decisions/040-checkout-flow-and-stripe-stand-in.md): cart, gift cards, card checkout through the
 * test processor (Stripe's test numbers), the confirmation page and the order page.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { decimalToCents, formatCurrency } from '../../src/lib/money.ts';
import { ADA, CartApi, CartPage, CheckoutPage, SLUG } from './fixtures/cart-page.ts';
import { DevOutbox } from './fixtures/dev-outbox.ts';
import { DESKTOP, PHONE, VIEWPORTS } from './fixtures/viewports.ts';

/** A full-page screenshot kept as a file in the test's output folder and attached to the report. */
async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

function api(page: Page, baseURL: string | undefined): CartApi {
  if (!baseURL) throw new Error('baseURL is not configured');
  return new CartApi(page.request, page.context(), baseURL);
}

/** The checkout page, open on a cart seeded through the API with a product and a bundle. */
async function checkoutOfSeededCart(page: Page, baseURL: string | undefined): Promise<CheckoutPage> {
  await api(page, baseURL).seedProductAndBundle();
  const checkout = new CheckoutPage(page);
  await checkout.goto();
  return checkout;
}

/** Fills in the address and the 4242 card, places the order and waits for its confirmation page. */
async function placeCardOrder(checkout: CheckoutPage, address = ADA) {
  await checkout.fillAddress(address);
  await checkout.fillCard('4242 4242 4242 4242');
  await checkout.placeOrder.click();
  await checkout.page.waitForURL(/\/acme\/order-confirmation\//);
}

/** Order uuid from /acme/order-confirmation/{uuid}. */
function orderIdFrom(url: string): string {
  const id = new URL(url).pathname.split('/').pop();
  if (!id) throw new Error(`no order id in ${url}`);
  return id;
}

test('a product, a bundle, ACME-25 and a 4242 card give a confirmation with the right total, and the order page shows the same', async ({
  page,
  baseURL,
}, testInfo) => {
  const seeded = await api(page, baseURL).seedProductAndBundle();
  const cart = new CartPage(page);
  await cart.goto();
  await expect(cart.entries).toHaveCount(2);
  await expect(page.getByTestId('cart-bundle')).toContainText(seeded.bundleName);
  await cart.applyGiftCard('ACME-25');
  await screenshot(page, testInfo, 'cart');

  await page.getByRole('link', { name: 'Checkout' }).last().click();
  const checkout = new CheckoutPage(page);
  await checkout.fillAddress();
  await expect(checkout.summary('Tax')).toHaveText(/^\$\d/);
  // One page, one action: no address button, and the email is asked once.
  await expect(page.getByRole('button', { name: /save address/i })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveCount(1);
  await checkout.fillCard('4242 4242 4242 4242');
  const total = await checkout.summary('Total').innerText();
  await expect(checkout.placeOrder).toHaveAccessibleName(`Place order · ${total}`);
  await expect(checkout.placeOrder).toBeEnabled();
  await screenshot(page, testInfo, 'checkout');

  await checkout.placeOrder.click();
  await page.waitForURL(/\/acme\/order-confirmation\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
  await expect(page.getByTestId('summary-total').locator('dd')).toHaveText(total);
  await expect(page.getByTestId('payment-status')).toHaveText('Paid by card');
  await expect(page.getByText('ACME-25')).toBeVisible();
  await expect(page.getByTestId('order-bundle')).toContainText(seeded.bundleName);
  const number = await page.getByTestId('order-number').innerText();
  await screenshot(page, testInfo, 'confirmation');

  const orderId = orderIdFrom(page.url());
  await page.goto(`/${SLUG}/order/${orderId}`);
  await expect(page.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
  await expect(page.getByTestId('summary-total').locator('dd')).toHaveText(total);
  await expect(page.getByText('12 Analytical Way')).toBeVisible();
  // Country and region by name, as the shopper chose them, not by their codes.
  const shipTo = page.getByRole('region', { name: 'Shipping address' });
  await expect(shipTo).toContainText('Springfield, Illinois 62701');
  await expect(shipTo).toContainText('United States');
  await expect(shipTo).not.toContainText(/\bUS\b|\bIL\b/);

  // The receipt was written with the order and is delivered (here: into the log) by the outbox worker.
  const outbox = new DevOutbox(page.request, baseURL!);
  const receipt = await outbox.find(ADA.email, number);
  expect(receipt.subject).toBe(`Your Acme Supply Co. order ${number}`);
  expect(receipt.kind).toBe('order_receipt');
  expect(receipt.text).toContain('Springfield, Illinois 62701\n  United States');
  for (const fact of [total, 'ACME-25', seeded.bundleName, '12 Analytical Way']) expect(receipt.text).toContain(fact);
  await expect.poll(async () => (await outbox.find(ADA.email, number)).status).toBe('sent');
  // acme has its own domain: the mailed link opens the order there.
  const link = /View your order: (\S+)/.exec(receipt.text)?.[1] ?? '';
  expect(new URL(link).pathname).toBe(`/order/${orderId}`);
  expect(new URL(link).hostname).toBe('shop.acme.test');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
});

for (const viewport of Object.values(VIEWPORTS)) {
  test(`every line and bundle item names its variant in checkout, on the confirmation and on the order page (${viewport.width} px)`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    const client = api(page, baseURL);
    await client.addVariant((await client.variantNamed('Classic Cotton Tee', 'L / Red')).id, 1);
    await client.addBundle((await client.bundleNamed('Weekend Outdoors Pack')).id, 1);
    const lines = [
      '1 × Classic Cotton Tee (L / Red)',
      '1 × Classic Cotton Tee (M / Navy)',
      '1 × Trail Hoodie (M / Forest)',
    ];

    const checkout = new CheckoutPage(page);
    await checkout.goto();
    // A phone shows the summary collapsed to its total.
    if (viewport.width < 600) await page.getByRole('button', { name: 'Show order summary' }).click();
    const summary = page.getByRole('list', { name: 'Items in your order' });
    for (const line of lines) await expect(summary).toContainText(line);
    await placeCardOrder(checkout);
    const items = page.getByRole('region', { name: 'Items' });
    for (const line of lines) await expect(items).toContainText(line);

    await page.goto(`/${SLUG}/order/${orderIdFrom(page.url())}`);
    for (const line of lines) await expect(page.getByRole('region', { name: 'Items' })).toContainText(line);
  });
}

for (const viewport of Object.values(VIEWPORTS)) {
  test(`a UK order prints its address the British way on the order page and in the email (${viewport.width} px)`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    const checkout = await checkoutOfSeededCart(page, baseURL);
    const grace = {
      ...ADA,
      email: 'grace@example.co.uk',
      city: 'London',
      country: 'United Kingdom',
      phone: '020 7946 0018',
    };
    await placeCardOrder(checkout, { ...grace, state: 'Westminster', regionLabel: 'Region', zip: 'SW1A 2AA' });
    const number = await page.getByTestId('order-number').innerText();

    await page.goto(`/${SLUG}/order/${orderIdFrom(page.url())}`);
    const lines = await page.getByRole('region', { name: 'Shipping address' }).locator('address').innerText();
    expect(lines.split('\n').slice(1, 5)).toEqual(['12 Analytical Way', 'London', 'SW1A 2AA', 'United Kingdom']);
    expect(lines).not.toMatch(/\bGB\b|\bWSM\b/);
    const receipt = await new DevOutbox(page.request, baseURL!).find(grace.email, number);
    expect(receipt.text).toContain('London\n  SW1A 2AA\n  United Kingdom');
  });
}

for (const viewport of Object.values(VIEWPORTS)) {
  test(`a refused gift card code says why under its field, until a card applies (${viewport.width} px)`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    await api(page, baseURL).seedProductAndBundle();
    const cart = new CartPage(page);
    await cart.goto();
    const field = page.getByRole('textbox', { name: 'Gift card code' });
    await field.fill('NOT-A-CARD');
    await page.getByRole('button', { name: 'Apply' }).click();
    const reason = 'This gift card is not valid or has no balance.';
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(reason);
    // The spec's toast says it too.
    await expect(page.getByRole('alert').filter({ hasText: reason }).first()).toBeVisible();

    // ACME-500: earlier tests may have spent ACME-25 on an order.
    await cart.applyGiftCard('ACME-500');
    await expect(field).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('.gift-cards').getByText(reason)).toHaveCount(0);
  });
}

for (const viewport of Object.values(VIEWPORTS)) {
  test(`the phone's country follows the shipping country until the shopper picks one (${viewport.width} px)`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    const checkout = await checkoutOfSeededCart(page, baseURL);
    const phoneCountry = page.getByRole('button', { name: /^Phone country:/ });
    await checkout.choose('Country', 'United Kingdom');
    await expect(phoneCountry).toHaveAccessibleName('Phone country: United Kingdom');
    await checkout.choose('Country', 'Canada');
    await expect(phoneCountry).toHaveAccessibleName('Phone country: Canada');

    // Picked by the shopper: it stays.
    await phoneCountry.click();
    await page.getByRole('option', { name: /^France\b/ }).click();
    await expect(phoneCountry).toHaveAccessibleName('Phone country: France');
    await checkout.choose('Country', 'United Kingdom');
    await expect(phoneCountry).toHaveAccessibleName('Phone country: France');
  });
}

test('a declined card shows the processor message, places no order and leaves the cart intact for another try', async ({
  page,
  baseURL,
}) => {
  const client = api(page, baseURL);
  const { cart: before } = await client.seedProductAndBundle();
  const checkout = new CheckoutPage(page);
  await checkout.goto();
  await checkout.fillAddress();
  await checkout.fillCard('4000 0000 0000 0002');
  await checkout.placeOrder.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await expect(page).toHaveURL(/\/acme\/checkout$/);
  const after = await client.cart();
  expect(after.cartItems.map((i) => [i.id, i.quantity])).toEqual(before.cartItems.map((i) => [i.id, i.quantity]));

  await checkout.fillCard('4000 0000 0000 9995');
  await checkout.placeOrder.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card has insufficient funds.' })).toBeVisible();

  // Coming back later: the saved address is shown and priced, only the card is asked for again.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'City', exact: true })).toHaveValue('Springfield');
  await expect(checkout.summary('Tax')).toHaveText(/^\$\d/);
  await checkout.fillCard('4242 4242 4242 4242');
  await expect(checkout.placeOrder).toBeEnabled();
  await checkout.placeOrder.click();
  await page.waitForURL(/\/acme\/order-confirmation\//);
});

test('when ACME-500 covers the total the order is placed without a card', async ({ page, baseURL }) => {
  await api(page, baseURL).seedProductAndBundle();
  const cart = new CartPage(page);
  await cart.goto();
  await cart.applyGiftCard('ACME-500');
  await expect(cart.summary('Total')).toHaveText('$0.00');

  const checkout = new CheckoutPage(page);
  await checkout.goto();
  await checkout.fillAddress();
  await expect(page.getByText('Your gift cards cover the total. No card is needed.')).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await expect(checkout.placeOrder).toHaveAccessibleName('Place order · $0.00');
  await checkout.placeOrder.click();
  await page.waitForURL(/\/acme\/order-confirmation\//);
  await expect(page.getByTestId('payment-status')).toHaveText('Paid with gift cards');
});

test('the cart changes quantities, removes a bundle whole and clears, without a page load', async ({
  page,
  baseURL,
}) => {
  const client = api(page, baseURL);
  const { productName, bundleName } = await client.seedProductAndBundle();
  const cart = new CartPage(page);
  await cart.goto();
  await expect(cart.entries).toHaveCount(2);
  const subtotal = decimalToCents((await client.cart()).subTotal);
  const unit = decimalToCents((await client.cart()).cartItems.find((i) => !i.bundle_id)!.unit_price);
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  await page.getByRole('button', { name: `Increase quantity of ${productName}` }).click();
  await expect(page.getByRole('spinbutton', { name: `Quantity of ${productName}` })).toHaveValue('2');
  await expect(cart.summary('Subtotal')).toHaveText(formatCurrency(subtotal + unit));
  await expect.poll(async () => (await client.cart()).cartItems.find((i) => !i.bundle_id)?.quantity).toBe(2);

  await page.getByRole('button', { name: `Remove ${bundleName}` }).click();
  await expect(cart.entries).toHaveCount(1);
  await expect.poll(async () => (await client.cart()).cartItems.filter((i) => i.bundle_id !== null).length).toBe(0);

  const tokenOf = async () => (await page.context().cookies()).find((c) => c.name === 'recipient-token')?.value;
  const oldToken = await tokenOf();
  // Clearing asks first: keeping the items changes nothing.
  await page.getByRole('button', { name: 'Clear cart' }).click();
  await expect(page.getByRole('button', { name: 'Yes, clear cart' })).toBeFocused();
  await page.getByRole('button', { name: 'Keep items' }).click();
  await expect(cart.entries).toHaveCount(1);
  expect(await tokenOf()).toBe(oldToken);
  await page.getByRole('button', { name: 'Clear cart' }).click();
  await page.getByRole('button', { name: 'Yes, clear cart' }).click();
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue shopping' })).toHaveAttribute('href', `/${SLUG}/shop`);
  // The old cart's token is gone (the reload may be issued a fresh one for a new, empty cart).
  expect(await tokenOf()).not.toBe(oldToken);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test('stock sold to another shopper while paying: the payment is refunded, the item is named and nothing is ordered', async ({
  page,
  baseURL,
  browser,
}) => {
  const client = api(page, baseURL);
  const sneaker = await client.variantNamed('Canvas Sneaker', 'US 11');
  await client.addVariant(sneaker.id, 1);
  const rivalContext = await browser.newContext();
  const rival = new CartApi(rivalContext.request, rivalContext, baseURL ?? '');
  // Between the card payment and finalize, another shopper buys every US 11 left.
  await page.route('**/cart/finalize', async (route) => {
    await rival.buy(sneaker.id, sneaker.attributes.stock);
    await route.continue();
  });

  const checkout = new CheckoutPage(page);
  await checkout.goto();
  await checkout.fillAddress();
  await checkout.fillCard('4242 4242 4242 4242');
  await checkout.placeOrder.click();
  const payment = page.getByRole('region', { name: 'Payment' });
  await expect(payment.getByRole('alert')).toHaveText(
    'Canvas Sneaker is out of stock. Your payment is being refunded; please review your cart and pay again.',
  );
  await expect(page).toHaveURL(/\/acme\/checkout$/);

  // Pressing again asks the server anew, which names the item before any card is charged.
  await page.unroute('**/cart/finalize');
  await checkout.placeOrder.click();
  await expect(payment.getByRole('alert')).toHaveText('Canvas Sneaker is out of stock.');
  expect((await client.cart()).cartItems.map((i) => i.quantity)).toEqual([1]);
  await rivalContext.close();
});

test('a double click on the pay button places one order, the button saying "Placing order…" meanwhile', async ({
  page,
  baseURL,
}) => {
  const finalizeCalls: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/cart/finalize')) finalizeCalls.push(request.url());
  });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/cart/finalize', async (route) => {
    await held;
    await route.continue();
  });
  const checkout = await checkoutOfSeededCart(page, baseURL);
  await checkout.fillAddress();
  await checkout.fillCard('4242 4242 4242 4242');
  await checkout.placeOrder.dblclick();
  await expect(page.getByRole('button', { name: 'Placing order…' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Placing order…' })).toBeFocused();
  release();
  await page.waitForURL(/\/acme\/order-confirmation\//);
  expect(finalizeCalls).toHaveLength(1);
});

test('Place order with fields missing says the form is incomplete and moves focus to the first one; with a wrong value, that it is not filled out correctly', async ({
  page,
  baseURL,
}) => {
  const checkout = await checkoutOfSeededCart(page, baseURL);
  const address = page.getByRole('group', { name: 'Contact and shipping' });
  const box = (name: string) => address.getByRole('textbox', { name, exact: true });
  await checkout.placeOrder.click();
  await expect(address.getByText('Form incomplete.', { exact: true })).toBeVisible();
  await expect(address.getByText('First name is required.')).toBeVisible();
  await expect(page.getByText('Card number is required.')).toBeVisible();
  await expect(box('First name')).toBeFocused();

  await box('First name').fill('Ada');
  await box('Last name').fill('Lovelace');
  await box('Email').fill('ada@');
  await box('Address line 1').fill('12 Analytical Way');
  await box('City').fill('Springfield');
  await checkout.choose('Country', 'United States');
  await checkout.choose('State', 'Illinois');
  await box('ZIP code').fill('62701');
  await box('Phone').fill('(217) 555-0100');
  await checkout.placeOrder.click();
  await expect(address.getByText('Sorry, not all fields are filled out correctly.', { exact: true })).toBeVisible();
  await expect(address.getByText('Please enter a valid email address.')).toBeVisible();
  await expect(address.getByText('Form incomplete.', { exact: true })).toHaveCount(0);
  await expect(box('Email')).toBeFocused();

  // The address complete, focus moves on to the card.
  await box('Email').fill('ada@example.com');
  await expect(page.locator('form.checkout__address')).toHaveAttribute('data-saved', 'true');
  await checkout.placeOrder.click();
  await expect(address.getByText('Sorry, not all fields are filled out correctly.', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Card number', exact: true })).toBeFocused();
  await expect(page).toHaveURL(/\/acme\/checkout$/);
});

test('an unknown order uuid answers the not-found page', async ({ page }) => {
  const response = await page.goto(`/${SLUG}/order/00000000-0000-4000-8000-000000000000`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText(`Page not found: /${SLUG}/order/00000000-0000-4000-8000-000000000000`)).toBeVisible();
});

test('a shopper buys on the custom domain with unprefixed links', async ({ page, baseURL }) => {
  const port = new URL(baseURL ?? '').port;
  const domainBase = `http://shop.acme.test:${port}`;
  // Playwright's request context does not use Chromium's host-resolver rule: seed through localhost.
  const client = new CartApi(page.request, page.context(), baseURL ?? '', domainBase);
  await client.seedProductAndBundle();
  const checkout = new CheckoutPage(page, '');
  await page.goto(`${domainBase}/checkout`);
  await checkout.fillAddress();
  await checkout.fillCard('4242 4242 4242 4242');
  await checkout.placeOrder.click();
  await page.waitForURL(new RegExp(`^${domainBase}/order-confirmation/[0-9a-f-]{36}$`));
  await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
  await page.goto(`${domainBase}/order/${orderIdFrom(page.url())}`);
  await expect(page.getByTestId('order-number')).toBeVisible();
});

test('the cart, checkout and confirmation pages pass axe without serious or critical violations', async ({
  page,
  baseURL,
}) => {
  const serious = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  await api(page, baseURL).seedProductAndBundle();
  const cart = new CartPage(page);
  await cart.goto();
  await expect(cart.entries).toHaveCount(2);
  expect(await serious()).toEqual([]);
  const checkout = new CheckoutPage(page);
  await checkout.goto();
  await checkout.fillAddress();
  await checkout.fillCard('4242 4242 4242 4242');
  expect(await serious()).toEqual([]);
  await checkout.placeOrder.click();
  await page.waitForURL(/\/acme\/order-confirmation\//);
  expect(await serious()).toEqual([]);
});

test('the cart page hydrates without a React error, empty or filled', async ({ page, baseURL }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`/${SLUG}/cart`);
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await api(page, baseURL).seedProductAndBundle();
  await page.reload();
  await expect(
    page
      .getByRole('button', { name: 'Checkout' })
      .or(page.getByRole('link', { name: 'Checkout' }))
      .first(),
  ).toBeVisible();
  expect(errors).toEqual([]);
});

test('with the built-in test processor the checkout shows a visible "Test mode — no real payments" badge', async ({
  page,
  baseURL,
}) => {
  const checkout = await checkoutOfSeededCart(page, baseURL);
  const badge = page.getByText('Test mode — no real payments', { exact: true });
  await expect(badge).toBeVisible();
  // Above the card fields, where the shopper looks before paying.
  await checkout.fillAddress();
  await expect(page.getByLabel('Card number')).toBeVisible();
  expect((await badge.boundingBox())!.y).toBeLessThan((await page.getByLabel('Card number').boundingBox())!.y);
});

test('before an address the cart charges no tax or shipping and says so; the address prices both by its state', async ({
  page,
  baseURL,
}) => {
  const shop = api(page, baseURL);
  const { variant } = await shop.firstVariant();
  const added = await shop.addVariant(variant.id, 1);
  const subtotal = decimalToCents(added.subTotal);
  expect(subtotal).toBeLessThan(7_500);
  const cart = new CartPage(page);
  await cart.goto();
  await expect(cart.summary('Shipping')).toHaveText('Calculated at checkout');
  await expect(cart.summary('Tax')).toHaveText('Calculated at checkout');
  // Nothing depending on the address hides in the total.
  await expect(cart.summary('Total')).toHaveText(formatCurrency(subtotal));
  await expect(page.getByTestId('free-shipping-hint')).toHaveText(
    `Add ${formatCurrency(7_500 - subtotal)} more for free shipping`,
  );

  await page.getByRole('link', { name: 'Checkout' }).last().click();
  const checkout = new CheckoutPage(page);
  await checkout.fillAddress({ ...ADA, state: 'California' });
  const californiaTax = Math.floor((subtotal * 725 + 5_000) / 10_000);
  await expect(checkout.summary('Tax')).toHaveText(formatCurrency(californiaTax));
  await expect(checkout.summary('Shipping')).toHaveText('$5.99');
  await expect(checkout.summary('Total')).toHaveText(formatCurrency(subtotal + californiaTax + 599));

  await checkout.fillAddress({ ...ADA, state: 'Oregon' });
  await expect(checkout.summary('Tax')).toHaveText('$0.00');
  await expect(checkout.summary('Total')).toHaveText(formatCurrency(subtotal + 599));
});

test("on a phone the checkout's order summary comes first, collapsed to its total, and opens on tap; wide screens show it beside the form", async ({
  page,
  baseURL,
}) => {
  const { cart } = await api(page, baseURL).seedProductAndBundle();
  await page.setViewportSize(PHONE);
  const checkout = new CheckoutPage(page);
  await checkout.goto();
  const toggle = page.getByRole('button', { name: 'Show order summary' });
  await expect(toggle).toContainText(formatCurrency(cart.total));
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  const items = page.getByRole('list', { name: 'Items in your order' });
  await expect(items).toBeHidden();
  const form = page.getByRole('group', { name: 'Contact and shipping' });
  expect((await toggle.boundingBox())!.y).toBeLessThan((await form.boundingBox())!.y);
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Hide order summary' })).toHaveAttribute('aria-expanded', 'true');
  await expect(items).toBeVisible();
  await expect(checkout.summary('Total')).toHaveText(formatCurrency(cart.total));

  await page.setViewportSize(DESKTOP);
  await expect(page.getByRole('button', { name: /order summary/ })).toBeHidden();
  await expect(items).toBeVisible();
  expect((await items.boundingBox())!.x).toBeGreaterThan((await form.boundingBox())!.x + 200);
});

for (const viewport of Object.values(VIEWPORTS)) {
  test(`address labels and the postal code's format follow the chosen country (${viewport.width} px)`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    const checkout = await checkoutOfSeededCart(page, baseURL);
    const form = page.getByRole('group', { name: 'Contact and shipping' });
    const region = (label: string) => form.getByRole('combobox', { name: label });
    const postal = (label: string) => form.getByRole('textbox', { name: label, exact: true });
    await expect(postal('ZIP / Postal code')).toBeVisible();

    for (const [country, regionName, postalName] of [
      ['Canada', 'Province', 'Postal code'],
      ['Japan', 'Prefecture', 'Postal code'],
      ['Ireland', 'County', 'Eircode'],
      ['United States', 'State', 'ZIP code'],
    ] as const) {
      await checkout.choose('Country', country);
      await expect(region(regionName)).toBeVisible();
      await expect(postal(postalName)).toBeVisible();
    }

    await checkout.choose('Country', 'Canada');
    await postal('Postal code').fill('62701');
    await postal('Postal code').blur();
    await expect(form.getByText('Please enter a valid postal code, like H3Z 2Y7.')).toBeVisible();
    await postal('Postal code').fill('m5v 2t6');
    await postal('Postal code').blur();
    await expect(form.getByText('Please enter a valid postal code, like H3Z 2Y7.')).toBeHidden();
  });
}
