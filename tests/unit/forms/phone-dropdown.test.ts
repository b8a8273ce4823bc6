import dialCodes from 'intl-tel-input/data';
import { describe, expect, test } from 'vitest';
import {
  dropdownDirection,
  findByPrefix,
  initialTypeToFind,
  isTypeToFindKey,
  listKeyAction,
  phoneCountries,
  searchCountries,
  spaceContinuesQuery,
  typeToFind,
} from '../../../src/lib/phone/index.ts';

const countries = phoneCountries(dialCodes);

describe('dropdown direction', () => {
  test('opens downward with 200 px or more free below the field', () => {
    expect(dropdownDirection({ bottom: 500 }, 700)).toBe('down');
  });
  test('opens upward with less than 200 px free below the field', () => {
    expect(dropdownDirection({ bottom: 501 }, 700)).toBe('up');
    expect(dropdownDirection({ bottom: 690 }, 700)).toBe('up');
  });
});

describe('type-to-find', () => {
  test('letters typed within 700 ms build one query', () => {
    let state = typeToFind(initialTypeToFind, 'F', 1000);
    state = typeToFind(state, 'r', 1700);
    expect(state.query).toBe('fr');
    expect(countries[findByPrefix(countries, state.query)]?.name).toBe('France');
  });

  test('a pause longer than 700 ms starts a new query', () => {
    let state = typeToFind(initialTypeToFind, 'f', 1000);
    state = typeToFind(state, 'j', 1701);
    expect(state.query).toBe('j');
  });

  test('a space continues a recent query and otherwise is the select key', () => {
    const state = typeToFind(initialTypeToFind, 'u', 1000);
    expect(spaceContinuesQuery(state, 1500)).toBe(true);
    expect(spaceContinuesQuery(state, 1701)).toBe(false);
    expect(spaceContinuesQuery(initialTypeToFind, 0)).toBe(false);
  });

  test('matching ignores accents and case and finds nothing for an unknown prefix', () => {
    expect(countries[findByPrefix(countries, 'cote')]?.iso2).toBe('ci');
    expect(findByPrefix(countries, 'zzz')).toBe(-1);
    expect(findByPrefix(countries, '')).toBe(-1);
  });

  test('only letters and spaces feed the query', () => {
    expect(['a', 'Z', 'é', ' '].every(isTypeToFindKey)).toBe(true);
    expect(['1', 'Enter', 'ArrowDown', '+'].some(isTypeToFindKey)).toBe(false);
  });
});

describe('list keys', () => {
  test('arrow down and up move and wrap around', () => {
    expect(listKeyAction('ArrowDown', 0, 3)).toEqual({ type: 'move', index: 1 });
    expect(listKeyAction('ArrowDown', 2, 3)).toEqual({ type: 'move', index: 0 });
    expect(listKeyAction('ArrowUp', 0, 3)).toEqual({ type: 'move', index: 2 });
    expect(listKeyAction('ArrowDown', -1, 3)).toEqual({ type: 'move', index: 0 });
  });
  test('enter and space select the highlighted entry', () => {
    expect(listKeyAction('Enter', 1, 3)).toEqual({ type: 'select', index: 1 });
    expect(listKeyAction(' ', 2, 3)).toEqual({ type: 'select', index: 2 });
    expect(listKeyAction('Enter', -1, 3)).toEqual({ type: 'none' });
  });
  test('escape closes and returns focus; tab closes and lets focus move on', () => {
    expect(listKeyAction('Escape', 1, 3)).toEqual({ type: 'close', restoreFocus: true });
    expect(listKeyAction('Tab', 1, 3)).toEqual({ type: 'close', restoreFocus: false });
  });
  test('other keys do nothing', () => {
    expect(listKeyAction('Home', 1, 3)).toEqual({ type: 'none' });
  });
});

describe('country search', () => {
  test('matches by name', () => {
    expect(searchCountries(countries, 'germ')[0]?.iso2).toBe('de');
    expect(searchCountries(countries, 'kingdom')[0]?.iso2).toBe('gb');
  });
  test('matches by iso2', () => {
    expect(searchCountries(countries, 'JP')[0]?.iso2).toBe('jp');
  });
  test('matches by dial code, main country of a shared code first', () => {
    expect(searchCountries(countries, '+44')[0]?.iso2).toBe('gb');
    const plusOne = searchCountries(countries, '1');
    expect(plusOne[0]?.iso2).toBe('us');
    expect(plusOne.map((country) => country.iso2)).toContain('ca');
  });
  test('a dial-code query longer than a calling code finds the country of its first 3 digits at most', () => {
    // '+4420…' is the start of a London number: the calling code is 44, not 4420.
    expect(searchCountries(countries, '+4420')[0]?.iso2).toBe('gb');
    expect(searchCountries(countries, '+44 20 7946 0958')[0]?.iso2).toBe('gb');
    expect(searchCountries(countries, '+353 1 234')[0]?.iso2).toBe('ie');
    // +1 is shared: an area code after it names the country, else the main country comes first.
    expect(searchCountries(countries, '+1 684 733')[0]?.iso2).toBe('as');
    expect(searchCountries(countries, '+1 212 555')[0]?.iso2).toBe('us');
    // No calling code starts with 999, so four digits never find one.
    expect(searchCountries(countries, '+9999')).toEqual([]);
  });
  test('an empty query lists everything', () => {
    expect(searchCountries(countries, ' ')).toHaveLength(countries.length);
  });
});

describe('phone country entries', () => {
  test('carry name, iso2, dial code, priority and area codes', () => {
    expect(countries.find((country) => country.iso2 === 'ca')).toMatchObject({
      name: 'Canada',
      iso2: 'ca',
      dialCode: '1',
      priority: 1,
      areaCodes: expect.arrayContaining(['416']),
    });
    expect(countries.find((country) => country.iso2 === 'us')).toMatchObject({ priority: 0, areaCodes: null });
  });
  test('preferred countries come first, the rest alphabetically', () => {
    const list = phoneCountries(dialCodes, { preferredCountries: ['US', 'gb'] });
    expect(list.slice(0, 3).map((country) => country.iso2)).toEqual(['us', 'gb', 'af']);
    const names = list.slice(2).map((country) => country.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });
  test('only-countries and ignored-countries shape the list', () => {
    expect(phoneCountries(dialCodes, { onlyCountries: ['us', 'CA'] }).map((country) => country.iso2)).toEqual([
      'ca',
      'us',
    ]);
    expect(phoneCountries(dialCodes, { ignoredCountries: ['us'] }).some((country) => country.iso2 === 'us')).toBe(
      false,
    );
  });
});
