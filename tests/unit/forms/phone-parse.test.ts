import { afterEach, describe, expect, test, vi } from 'vitest';
import { PHONE_LIMITS, parsePhone, resolveDisplayMode } from '../../../src/lib/phone/index.ts';
import { emptyPhone } from '../../../src/lib/phone/phone-defaults.ts';

// Valid numbers from several countries, typed nationally and internationally.
const NUMBERS = [
  {
    country: 'US',
    national: '(213) 373-4253',
    international: '+1 213 373 4253',
    e164: '+12133734253',
    nsn: '2133734253',
    code: '1',
  },
  {
    country: 'GB',
    national: '020 7946 0958',
    international: '+44 20 7946 0958',
    e164: '+442079460958',
    nsn: '2079460958',
    code: '44',
  },
  {
    country: 'DE',
    national: '030 901820',
    international: '+49 30 901820',
    e164: '+4930901820',
    nsn: '30901820',
    code: '49',
  },
  {
    country: 'FR',
    national: '01 23 45 67 89',
    international: '+33 1 23 45 67 89',
    e164: '+33123456789',
    nsn: '123456789',
    code: '33',
  },
  {
    country: 'IN',
    national: '081234 56789',
    international: '+91 81234 56789',
    e164: '+918123456789',
    nsn: '8123456789',
    code: '91',
  },
  {
    country: 'BR',
    national: '(11) 96123-4567',
    international: '+55 11 96123 4567',
    e164: '+5511961234567',
    nsn: '11961234567',
    code: '55',
  },
  {
    country: 'JP',
    national: '090-1234-5678',
    international: '+81 90 1234 5678',
    e164: '+819012345678',
    nsn: '9012345678',
    code: '81',
  },
  {
    country: 'AU',
    national: '0412 345 678',
    international: '+61 412 345 678',
    e164: '+61412345678',
    nsn: '412345678',
    code: '61',
  },
];

afterEach(() => vi.restoreAllMocks());

describe.each(NUMBERS)('a $country number', (n) => {
  test('typed nationally is read with the selected country', () => {
    const phone = parsePhone(n.national, { country: n.country });
    expect(phone).toMatchObject({
      country: n.country,
      countryCode: n.code,
      nationalNumber: n.nsn,
      valid: true,
      possible: true,
      error: undefined,
    });
  });

  test('typed with + is read as international whatever country is selected', () => {
    const phone = parsePhone(n.e164, { country: n.country === 'US' ? 'GB' : 'US' });
    expect(phone).toMatchObject({ country: n.country, countryCode: n.code, valid: true });
  });

  test.each([
    ['national', 'national'],
    ['international', 'international'],
    ['e.164', 'e164'],
  ] as const)('is written in %s mode', (mode, key) => {
    expect(parsePhone(n.e164, { country: n.country, displayMode: mode }).formatted).toBe(n[key]);
  });

  test('is written in rfc3966 mode as a tel: URI', () => {
    expect(parsePhone(n.national, { country: n.country, displayMode: 'rfc3966' }).formatted).toBe(`tel:${n.e164}`);
  });
});

describe('display modes', () => {
  test('auto writes international after a leading + and national otherwise', () => {
    expect(parsePhone('+442079460958', { country: 'US' }).formatted).toBe('+44 20 7946 0958');
    expect(parsePhone('2079460958', { country: 'GB' }).formatted).toBe('020 7946 0958');
    expect(resolveDisplayMode(undefined, '+1')).toBe('international');
    expect(resolveDisplayMode('auto', '213')).toBe('national');
  });

  test('rfc3966 gives a tel: URI that carries the extension', () => {
    expect(parsePhone('(213) 373-4253 ext. 12', { country: 'US', displayMode: 'rfc3966' }).formatted).toBe(
      'tel:+12133734253;ext=12',
    );
  });

  test('idd writes the number as dialled from the selected country', () => {
    expect(parsePhone('+442079460958', { country: 'US', displayMode: 'idd' }).formatted).toBe('011 44 20 7946 0958');
    expect(parsePhone('+12133734253', { country: 'GB', displayMode: 'idd' }).formatted).toBe('00 1 213 373 4253');
  });

  test('an unknown mode logs an error and falls back to international', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(parsePhone('2133734253', { country: 'US', displayMode: 'fancy' }).formatted).toBe('+1 213 373 4253');
    expect(error).toHaveBeenCalledOnce();
    expect(String(error.mock.calls[0]?.[0])).toContain('fancy');
  });
});

describe('validity rules', () => {
  test('a well-formed but unassigned number is possible but not valid', () => {
    expect(parsePhone('(213) 173-4253', { country: 'US' })).toMatchObject({ valid: false, possible: true });
  });

  test('the default country is the United States', () => {
    expect(parsePhone('2133734253')).toMatchObject({ country: 'US', valid: true });
  });

  test('a country outside only-countries makes the number invalid', () => {
    expect(parsePhone('+442079460958', { onlyCountries: ['US', 'CA'] })).toMatchObject({ country: 'GB', valid: false });
    expect(parsePhone('+12133734253', { onlyCountries: ['us', 'ca'] }).valid).toBe(true);
  });

  test('a country in ignored-countries makes the number invalid', () => {
    expect(parsePhone('+442079460958', { ignoredCountries: ['gb'] }).valid).toBe(false);
    expect(parsePhone('+33123456789', { ignoredCountries: ['gb'] }).valid).toBe(true);
  });

  test('character restriction allows only digits, spaces, parentheses, plus and hyphen', () => {
    expect(parsePhone('(213) 373-4253', { restrictCharacters: true }).valid).toBe(true);
    expect(parsePhone('213.373.4253', { restrictCharacters: true })).toMatchObject({
      valid: false,
      error: 'not_a_number',
    });
    // Without the restriction the library reads dots as separators.
    expect(parsePhone('213.373.4253').valid).toBe(true);
  });

  test('a custom pattern replaces the built-in check', () => {
    const pattern = /^\d{3}-\d{4}$/;
    expect(parsePhone('555-0100', { customPattern: pattern })).toMatchObject({ valid: true, possible: true });
    expect(parsePhone('(213) 373-4253', { customPattern: pattern })).toMatchObject({ valid: false });
    expect(parsePhone('555-0100', { customPattern: '^\\d{3}-\\d{4}$' }).valid).toBe(true);
  });

  test('a custom pattern does not let an excluded country through', () => {
    expect(parsePhone('+442079460958', { customPattern: /.*/, onlyCountries: ['US'] }).valid).toBe(false);
  });
});

describe('limits', () => {
  test('limits are those of spec §9', () => {
    expect(PHONE_LIMITS).toEqual({
      minNationalLength: 2,
      maxNationalLength: 17,
      maxRawInputLength: 250,
      maxCallingCodeLength: 3,
      maxExtensionLength: 20,
    });
  });

  test('a national number of one digit is too short', () => {
    expect(parsePhone('+1 2')).toMatchObject({ valid: false, error: 'too_short' });
  });

  test('a national number of 17 digits is read, 18 is too long', () => {
    expect(parsePhone(`+49 ${'1'.repeat(17)}`).nationalNumber).toHaveLength(17);
    expect(parsePhone(`+49 ${'1'.repeat(18)}`)).toMatchObject({ valid: false, error: 'too_long' });
  });

  test('raw input over 250 characters is rejected', () => {
    const padded = `+44 20 7946 0958${' '.repeat(235)}`;
    expect(padded.length).toBe(251);
    expect(parsePhone(padded)).toMatchObject({ valid: false, possible: false, error: 'too_long' });
    expect(parsePhone(padded.slice(0, 250)).valid).toBe(true);
  });

  test('a calling code longer than 3 digits is an invalid country', () => {
    expect(parsePhone('+9999 1234567')).toMatchObject({ valid: false, error: 'invalid_country' });
  });

  test('an extension of up to 20 digits is kept, a longer one is too long', () => {
    expect(parsePhone(`+1 213 373 4253 ext. ${'1'.repeat(20)}`)).toMatchObject({
      valid: true,
      formatted: `+1 213 373 4253 ext. ${'1'.repeat(20)}`,
    });
    expect(parsePhone(`+1 213 373 4253 ext. ${'1'.repeat(21)}`)).toMatchObject({
      valid: false,
      possible: false,
      error: 'too_long',
    });
  });

  test.each([
    ['x', '(213) 373-4253 x'],
    ['#', '(213) 373-4253 #'],
    ['ext', '(213) 373-4253 ext'],
    ['extension:', '(213) 373-4253 extension: '],
    [';ext=', '+12133734253;ext='],
  ])('the 20-digit extension limit holds after %s as after ext.', (_label, prefix) => {
    const twenty = '12345678901234567890';
    expect(parsePhone(`${prefix}${twenty}`, { country: 'US', displayMode: 'e.164' })).toMatchObject({
      valid: true,
      formatted: '+12133734253',
      nationalNumber: '2133734253',
    });
    expect(parsePhone(`${prefix}${twenty}`, { country: 'US', displayMode: 'rfc3966' }).formatted).toBe(
      `tel:+12133734253;ext=${twenty}`,
    );
    expect(parsePhone(`${prefix}${twenty}1`, { country: 'US' })).toMatchObject({ valid: false, error: 'too_long' });
  });

  test('a field may allow shorter extensions than the default 20 digits', () => {
    expect(parsePhone('(213) 373-4253 ext. 1234', { country: 'US', maxExtensionLength: 4 }).valid).toBe(true);
    expect(parsePhone('(213) 373-4253 ext. 12345', { country: 'US', maxExtensionLength: 4 })).toMatchObject({
      valid: false,
      error: 'too_long',
    });
  });
});

describe('error kinds', () => {
  test.each([
    ['letters only', 'call me', 'not_a_number'],
    ['an unknown calling code', '+999 123456', 'invalid_country'],
    ['a lone digit', '+1 2', 'too_short'],
    ['too many digits for the country', '+1 213 373 42530', 'too_long'],
    ['too few digits for the country', '+1 213 373 42', 'too_short'],
  ])('%s gives %s', (_what, raw, kind) => {
    expect(parsePhone(raw, { country: 'US' })).toMatchObject({ valid: false, error: kind });
  });

  test('a failed parse keeps what was typed as the formatted value', () => {
    expect(parsePhone('call me', { country: 'US' })).toMatchObject({
      formatted: 'call me',
      nationalNumber: '',
      country: 'US',
    });
  });
});

describe('an empty field', () => {
  // The phone field answers an empty number itself before libphonenumber-js has loaded: the same answer.
  test.each(['US', 'gb', 'JP'])('is answered by emptyPhone as parsePhone answers it (%s)', (country) => {
    expect(emptyPhone(country)).toEqual(parsePhone('', { country }));
  });
});
