import { describe, expect, test } from 'vitest';
import { addressFormat } from '../../../src/lib/address-format-data.ts';
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

const print = (address: Address) => printedAddress(address, countries, addressFormat(address.country));

describe('a printed address', () => {
  test('a US address: "City, State ZIP" with the state and the country by name', () => {
    expect(print(base)).toEqual([
      'Ada Lovelace',
      '12 Analytical Way',
      'Springfield, Illinois 62701',
      'United States',
      '+1 217 555 0100',
      'ada@example.com',
    ]);
  });

  test('a UK address: town and postcode on lines of their own, "United Kingdom", no "WSM" nor "GB"', () => {
    const uk = { ...base, city: 'London', state: 'WSM', zip: 'SW1A 2AA', country: 'GB', address_line2: 'Flat 2' };
    expect(print(uk).slice(1, 6)).toEqual(['12 Analytical Way', 'Flat 2', 'London', 'SW1A 2AA', 'United Kingdom']);
  });

  test('a German address puts the postal code before the city', () => {
    const de = { ...base, city: 'Berlin', state: '', zip: '10115', country: 'DE' };
    expect(print(de).slice(2, 4)).toEqual(['10115 Berlin', 'Germany']);
  });

  test('a Canadian address names the province between city and postal code', () => {
    const ca = { ...base, city: 'Toronto', state: 'ON', zip: 'M5V 2T6', country: 'CA' };
    expect(print(ca).slice(2, 4)).toEqual(['Toronto Ontario M5V 2T6', 'Canada']);
  });

  test('a Japanese address is printed in its Latin-script order', () => {
    const jp = { ...base, city: 'Chiyoda-ku', state: '', zip: '100-0001', country: 'JP' };
    expect(print(jp).slice(0, 4)).toEqual(['Ada Lovelace', '12 Analytical Way', '100-0001', 'Japan']);
  });

  test('an empty region drops the comma before it, not the space before the ZIP', () => {
    expect(print({ ...base, state: '' })[2]).toBe('Springfield 62701');
    expect(print({ ...base, zip: '' })[2]).toBe('Springfield, Illinois');
    expect(print({ ...base, city: '' })[2]).toBe('Illinois 62701');
  });

  test('a country the data does not know prints every field as it was stored', () => {
    const odd = { ...base, state: 'XX', country: 'ZZ' };
    expect(print(odd).slice(2, 4)).toEqual(['Springfield, XX 62701', 'ZZ']);
  });
});
