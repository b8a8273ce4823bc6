/**
 * One focus style (docs/decisions/185-design-tokens.md): whatever a keyboard user lands on — a link, a button,
 * a field, a select, a product card, a form control of an island, an option chip or a gallery thumbnail —
 * shows the same ring, drawn from the tokens, on the desktop and on a phone.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { CartApi } from './fixtures/cart-page.ts';
import { islandsHydrated } from './fixtures/islands.ts';
import { VIEWPORTS } from './fixtures/viewports.ts';

type Ring = { style: string; width: string; color: string; offset: string };

/** Where a visually hidden control draws its ring: itself, or the element that stands for it. */
type RingOwner = 'self' | 'next-sibling' | 'label' | 'card-frame';

/** Moves the focus with the Tab key (as a keyboard user does, so :focus-visible applies) until `target` has it. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  await expect(target).toHaveCount(1);
  for (let presses = 0; presses < 150; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

async function ringOf(target: Locator, owner: RingOwner = 'self'): Promise<Ring> {
  await expect(target).toBeFocused();
  expect(await target.evaluate((element) => element.matches(':focus-visible'))).toBe(true);
  return target.evaluate((element, ownerKind) => {
    const owners = {
      self: element,
      'next-sibling': element.nextElementSibling,
      label: element.closest('label'),
      'card-frame': element.closest('.card-field__element'),
    };
    const drawn = owners[ownerKind];
    if (!drawn) throw new Error('the element that draws the ring is missing');
    const style = getComputedStyle(drawn);
    return {
      style: style.outlineStyle,
      width: style.outlineWidth,
      color: style.outlineColor,
      offset: style.outlineOffset,
    };
  }, owner);
}

/** The ring the tokens describe, as the browser computes it. */
async function tokenRing(page: Page): Promise<Ring> {
  return page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.outline = 'var(--focus-ring-width) solid var(--color-focus)';
    probe.style.outlineOffset = 'var(--focus-ring-offset)';
    document.body.append(probe);
    const style = getComputedStyle(probe);
    const ring = {
      style: style.outlineStyle,
      width: style.outlineWidth,
      color: style.outlineColor,
      offset: style.outlineOffset,
    };
    probe.remove();
    return ring;
  });
}

for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
  test(`links, buttons, fields, cards and option chips show the same focus ring from the keyboard (${viewportName})`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    const rings: [element: string, ring: Ring][] = [];

    await page.goto('/acme/shop');
    const expected = await tokenRing(page);
    expect(expected.style).toBe('solid');
    expect(parseFloat(expected.width)).toBeGreaterThanOrEqual(2);

    const search = page.getByRole('searchbox', { name: 'Search products' });
    await tabTo(page, search);
    rings.push(['search field', await ringOf(search)]);
    const sort = page.getByRole('combobox', { name: 'Sort by' });
    await tabTo(page, sort);
    rings.push(['select', await ringOf(sort)]);
    const apply = page.getByRole('button', { name: 'Apply' });
    await tabTo(page, apply);
    rings.push(['button', await ringOf(apply)]);
    const card = page.getByRole('list', { name: 'Products and bundles' }).getByRole('link').first();
    await tabTo(page, card);
    rings.push(['product card', await ringOf(card)]);
    const footerLink = page.getByRole('navigation', { name: 'Store policies' }).getByRole('link').first();
    await tabTo(page, footerLink);
    rings.push(['link', await ringOf(footerLink)]);

    await page.goto('/acme/product/1');
    await islandsHydrated(page);
    const thumb = page.getByRole('group', { name: 'Choose an image' }).getByRole('radio', { checked: true });
    await tabTo(page, thumb);
    rings.push(['gallery thumbnail', await ringOf(thumb, 'label')]);
    const size = page.getByRole('group', { name: 'Size' }).getByRole('radio', { checked: true });
    await tabTo(page, size);
    rings.push(['option chip', await ringOf(size, 'next-sibling')]);
    const quantity = page.getByRole('spinbutton', { name: 'Quantity' });
    await tabTo(page, quantity);
    rings.push(['number field', await ringOf(quantity)]);
    const add = page.getByRole('button', { name: 'Add to cart' });
    await tabTo(page, add);
    rings.push(['primary button', await ringOf(add)]);

    // The restricted-store form is an island with the shared form controls (src/islands/forms).
    await page.goto('/vip');
    await islandsHydrated(page);
    const email = page.getByRole('textbox', { name: /Email/ });
    await tabTo(page, email);
    rings.push(['island text field', await ringOf(email)]);

    // Checkout: the phone's country button, and the card number, whose frame draws the ring (and only the frame).
    await new CartApi(page.request, page.context(), baseURL!).seedProductAndBundle();
    await page.goto('/acme/checkout');
    await islandsHydrated(page);
    const country = page.getByRole('button', { name: /^Phone country/ });
    await tabTo(page, country);
    rings.push(['phone country button', await ringOf(country)]);
    const cardNumber = page.getByRole('textbox', { name: 'Card number', exact: true });
    await tabTo(page, cardNumber);
    rings.push(['card number frame', await ringOf(cardNumber, 'card-frame')]);
    // Nothing inside the frame draws a ring of its own (the field, or the element Stripe mounts in).
    const innerRings = await cardNumber.evaluate((element) =>
      [element, element.parentElement!].map((inner) => getComputedStyle(inner).outlineStyle),
    );
    expect(innerRings, 'a second ring inside the card frame').toEqual(['none', 'none']);

    for (const [element, ring] of rings) expect(ring, element).toEqual(expected);
  });
}
