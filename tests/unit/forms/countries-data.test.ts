import { describe, expect, test } from 'vitest';
import {
  loadCountries,
  normalizeCountryData,
  regionValue,
  regionsOf,
  type CountryTuple,
} from '../../../src/lib/countries.ts';

describe('country reference data', () => {
  test('starts with the United States and its states, territories and armed-forces regions', async () => {
    const countries = await loadCountries();
    expect(countries[0]?.countryName).toBe('United States');
    const names = countries[0]?.regions.map((region) => region.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(['California', 'Puerto Rico', 'Armed Forces Americas']));
  });

  test('continues alphabetically after the United States', async () => {
    const rest = (await loadCountries()).slice(1).map((country) => country.countryName);
    expect(rest[0]).toBe('Afghanistan');
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'en')));
    expect(rest.some((name) => name.startsWith('Venezuela'))).toBe(true);
  });

  test('missing shortCodes in the package ("undefined", "") become absent, names are kept', async () => {
    const countries = await loadCountries();
    const falklands = regionsOf(countries, 'FK');
    expect(falklands).toEqual([{ name: 'Falkland Islands (Islas Malvinas)' }]);
    expect(countries.flatMap((country) => country.regions).some((region) => region.shortCode === 'undefined')).toBe(
      false,
    );
  });

  test('quirks are kept: repeated shortCodes within a country and an empty region', () => {
    const rows: CountryTuple[] = [
      [
        'Chile',
        'CL',
        [
          ['Antofagasta', 'AN'],
          ['', ''],
          ['Araucanía', 'AR'],
        ],
      ],
      [
        'Somewhere',
        'SW',
        [
          ['North', 'N'],
          ['Northwest', 'N'],
        ],
      ],
      ['United States', 'US', [['Alabama', 'AL']]],
    ];
    const [us, chile, somewhere] = normalizeCountryData(rows);
    expect(us?.countryShortCode).toBe('US');
    expect(chile?.regions).toHaveLength(3);
    expect(somewhere?.regions.map((region) => region.shortCode)).toEqual(['N', 'N']);
    // The select offers only named regions.
    expect(regionsOf([chile!], 'CL').map((region) => region.name)).toEqual(['Antofagasta', 'Araucanía']);
  });

  test('a region is stored by its shortCode, or by its name without one', () => {
    expect(regionValue({ name: 'California', shortCode: 'CA' })).toBe('CA');
    expect(regionValue({ name: 'Atiu' })).toBe('Atiu');
  });

  test('an unknown or empty country has no regions', async () => {
    const countries = await loadCountries();
    expect(regionsOf(countries, 'XX')).toEqual([]);
    expect(regionsOf(countries, null)).toEqual([]);
  });
});
