import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { buildFormsHarness, type HarnessFiles } from './fixtures/forms-harness-bundle.ts';

// The harness is bundled once and served from memory: no web server, works under either config.
let files: HarnessFiles;
test.beforeAll(async () => {
  files = await buildFormsHarness();
});

async function openHarness(page: Page, query = '') {
  await page.route('http://harness.test/**', async (route) => {
    const file = files.get(new URL(route.request().url()).pathname);
    if (!file) return route.fulfill({ status: 404, body: 'not in the harness' });
    return route.fulfill({ status: 200, contentType: file.contentType, body: file.body });
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`http://harness.test/${query}`);
  await expect(page.getByRole('heading', { name: 'Forms harness' })).toBeVisible();
  return errors;
}

const phoneCountryButton = (page: Page) => page.getByRole('button', { name: /^Phone country:/ });
const countryList = (page: Page) => page.getByRole('listbox', { name: 'Country calling codes' });
const activeOption = async (page: Page) => {
  const id = await countryList(page).getAttribute('aria-activedescendant');
  return page.locator(`[id="${id}"]`);
};

test.describe('phone country dropdown', () => {
  test('opens downward when there is room below the field', async ({ page }) => {
    await openHarness(page);
    await phoneCountryButton(page).click();
    await expect(countryList(page)).toBeVisible();
    await expect(countryList(page)).toHaveAttribute('data-direction', 'down');
    const button = await phoneCountryButton(page).boundingBox();
    const list = await countryList(page).boundingBox();
    expect(list!.y).toBeGreaterThan(button!.y);
  });

  test('opens upward when less than 200 px is free below the field', async ({ page }) => {
    await openHarness(page, '?layout=bottom');
    await phoneCountryButton(page).click();
    await expect(countryList(page)).toHaveAttribute('data-direction', 'up');
    const button = await phoneCountryButton(page).boundingBox();
    const list = await countryList(page).boundingBox();
    expect(list!.y + list!.height).toBeLessThanOrEqual(button!.y + 1);
  });

  test('arrow keys move through the countries and enter picks one', async ({ page }) => {
    await openHarness(page);
    await phoneCountryButton(page).focus();
    await page.keyboard.press('ArrowDown');
    await expect(countryList(page)).toBeFocused();
    // US is the preferred country, listed first; the next entry is the alphabetical start.
    await expect(await activeOption(page)).toContainText('United States');
    await page.keyboard.press('ArrowDown');
    await expect(await activeOption(page)).toContainText('Afghanistan');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await expect(await activeOption(page)).toContainText('Afghanistan');
    await page.keyboard.press('Enter');
    await expect(countryList(page)).toBeHidden();
    await expect(phoneCountryButton(page)).toHaveAccessibleName('Phone country: Afghanistan');
    await expect(page.getByRole('textbox', { name: 'Phone' })).toBeFocused();
  });

  test('space picks the highlighted country and escape closes without picking', async ({ page }) => {
    await openHarness(page);
    await phoneCountryButton(page).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await expect(countryList(page)).toBeHidden();
    await expect(phoneCountryButton(page)).toBeFocused();
    await expect(phoneCountryButton(page)).toHaveAccessibleName('Phone country: United States');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    await expect(phoneCountryButton(page)).toHaveAccessibleName('Phone country: Afghanistan');
  });

  test('tab closes the list and moves on to the number', async ({ page }) => {
    await openHarness(page);
    await phoneCountryButton(page).click();
    await expect(countryList(page)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(countryList(page)).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Phone' })).toBeFocused();
  });

  test('the list shows dial codes but the selected country shows only its flag', async ({ page }) => {
    await openHarness(page);
    await expect(phoneCountryButton(page)).not.toContainText('+1');
    await phoneCountryButton(page).click();
    await expect(page.getByRole('option', { name: 'United Kingdom +44' })).toBeVisible();
  });

  test('typed letters find a country and are forgotten after 700 ms', async ({ page }) => {
    await page.clock.install();
    await openHarness(page);
    await page.clock.pauseAt(Date.now() + 10_000);
    await phoneCountryButton(page).click();
    await expect(countryList(page)).toBeFocused();
    await page.keyboard.press('f');
    await expect(await activeOption(page)).toContainText('Falkland Islands');
    await page.keyboard.press('r');
    await expect(await activeOption(page)).toContainText('France');
    await page.clock.runFor(600);
    await page.keyboard.press('a');
    // 'fra' is still one query within 700 ms of the last key.
    await expect(await activeOption(page)).toContainText('France');
    await page.clock.runFor(701);
    // A fresh query: 'j' alone finds Jamaica, where 'fraj' would have found nothing.
    await page.keyboard.press('j');
    await expect(await activeOption(page)).toContainText('Jamaica');
  });

  test('typing an international number switches the flag and formats it', async ({ page }) => {
    await openHarness(page);
    const input = page.getByRole('textbox', { name: 'Phone' });
    await expect(input).toHaveAttribute('placeholder', 'Enter a phone number');
    await expect(input).toHaveAttribute('maxlength', '25');
    await expect(input).toHaveAttribute('name', 'telephone');
    await expect(input).toHaveAttribute('type', 'tel');
    await input.pressSequentially('+442079460958');
    await expect(phoneCountryButton(page)).toHaveAccessibleName('Phone country: United Kingdom');
    await expect(input).toHaveValue('+44 20 7946 0958');
    await expect(page.getByTestId('phone-value')).toContainText('"valid":true');
    await expect(page.getByTestId('phone-value')).toContainText('"country":"GB"');
  });

  test('an invalid number gets a message when the field is left', async ({ page }) => {
    await openHarness(page);
    const input = page.getByRole('textbox', { name: 'Phone' });
    await input.pressSequentially('12');
    await expect(page.getByText('Please enter a valid phone number.')).toBeHidden();
    await input.blur();
    await expect(page.getByText('Please enter a valid phone number.')).toBeVisible();
    await expect(input).toHaveAttribute('aria-invalid', 'true');
  });
});

test.describe('phone country by IP', () => {
  test('the looked-up country becomes the default', async ({ page }) => {
    await page.route('http://geo.test/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: '1;GB;GBR;United Kingdom' }),
    );
    await openHarness(page, `?geo=${encodeURIComponent('http://geo.test/lookup')}`);
    await expect(phoneCountryButton(page)).toHaveAccessibleName('Phone country: United Kingdom');
  });

  test('a failed lookup keeps the first preferred country', async ({ page }) => {
    let asked = 0;
    await page.route('http://geo.test/**', (route) => {
      asked++;
      return route.fulfill({ status: 200, contentType: 'text/plain', body: '0;;;' });
    });
    await openHarness(page, `?geo=${encodeURIComponent('http://geo.test/lookup')}`);
    await expect.poll(() => asked).toBeGreaterThan(0);
    await expect(phoneCountryButton(page)).toHaveAccessibleName('Phone country: United States');
  });
});

test.describe('text fields', () => {
  test('a validation message appears when the field is left, not while first typing', async ({ page }) => {
    await openHarness(page);
    const email = page.getByRole('textbox', { name: 'Email' });
    await email.pressSequentially('shopper@');
    await expect(page.getByText('Please enter a valid email address.')).toBeHidden();
    await email.blur();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    // Once shown, the message follows the corrections.
    await email.pressSequentially('example.com');
    await expect(page.getByText('Please enter a valid email address.')).toBeHidden();
    await expect(page.getByTestId('email-value')).toHaveText('shopper@example.com');
  });

  test('an empty required field says so on blur', async ({ page }) => {
    await openHarness(page);
    const email = page.getByRole('textbox', { name: 'Email' });
    await email.focus();
    await expect(page.getByText('Email is required.')).toBeHidden();
    await email.blur();
    await expect(page.getByText('Email is required.')).toBeVisible();
  });
});

test.describe('country and state selects', () => {
  test('state options follow the chosen country', async ({ page }) => {
    const errors = await openHarness(page);
    const country = page.getByRole('combobox', { name: 'Country' });
    const state = page.getByRole('combobox', { name: 'State' });
    await expect(country).toHaveValue('United States');
    await expect(state).toHaveAttribute('placeholder', 'State *');
    await state.click();
    await expect(page.getByRole('option', { name: 'California' })).toBeVisible();
    await page.getByRole('option', { name: 'California' }).click();
    await expect(page.getByTestId('address-value')).toHaveText('US/CA');

    await country.click();
    await country.fill('Cana');
    await expect(page.getByRole('option', { name: 'Canada' })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(country).toHaveValue('Canada');
    // California is not a Canadian province: the state is cleared and the list is Canada's.
    await expect(page.getByTestId('address-value')).toHaveText('CA/');
    await state.click();
    await expect(page.getByRole('option', { name: 'Ontario' })).toBeVisible();
    await expect(page.getByRole('option', { name: 'California' })).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('the country select is usable with the keyboard alone', async ({ page }) => {
    await openHarness(page);
    const country = page.getByRole('combobox', { name: 'Country' });
    await country.focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('listbox', { name: 'Country' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(country).toHaveValue('Afghanistan');
  });

  test('leaving the state select empty shows that it is required', async ({ page }) => {
    await openHarness(page);
    const state = page.getByRole('combobox', { name: 'State' });
    await state.focus();
    await state.blur();
    await expect(page.getByText('State is required.')).toBeVisible();
  });
});

test.describe('accessibility', () => {
  test('the controls have no axe violations, with the phone list open', async ({ page }) => {
    await openHarness(page);
    await phoneCountryButton(page).click();
    await expect(countryList(page)).toBeVisible();
    const results = await new AxeBuilder({ page }).include('main').withTags(['wcag2a', 'wcag2aa']).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.length}`)).toEqual([]);
  });
});
