import { describe, expect, test } from 'vitest';
import type { Address } from '../../../src/lib/contract/answers.ts';
import { ALL_COUNTRIES as countries } from '../../../src/lib/country-data.ts';
import { printedAddress } from '../../../src/lib/printed-address.ts';

const base: Address = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  address_line1: '12 Analytical Way',
  address_line2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US',
  phone: '+1 217 555 0100',
  email: 'ada@example.com',
};

describe('a printed address', () => {
  test('names the country and the region instead of their codes', () => {
    expect(printedAddress(base, countries)).toEqual([
      'Ada Lovelace',
      '12 Analytical Way',
      'Springfield, Illinois 62701',
      'United States',
      '+1 217 555 0100',
      'ada@example.com',
    ]);
  });

  test('a UK address reads "London, Westminster SW1A 2AA" and "United Kingdom", not "WSM" and "GB"', () => {
    const uk = { ...base, city: 'London', state: 'WSM', zip: 'SW1A 2AA', country: 'GB', address_line2: 'Flat 2' };
    expect(printedAddress(uk, countries).slice(1, 5)).toEqual([
      '12 Analytical Way',
      'Flat 2',
      'London, Westminster SW1A 2AA',
      'United Kingdom',
    ]);
  });

  test('a value the data does not know is printed as it was stored; an empty region leaves no stray comma', () => {
    const odd = { ...base, state: '', country: 'ZZ' };
    expect(printedAddress(odd, countries).slice(2, 4)).toEqual(['Springfield 62701', 'ZZ']);
  });
});
