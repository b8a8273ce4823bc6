import { describe, expect, test } from 'vitest';
import itiUtils from '../../../src/lib/phone/iti-utils.ts';

// intl-tel-input calls these with lower-case iso2 codes; libphonenumber-js answers them.
describe('intl-tel-input utils backed by libphonenumber-js', () => {
  test('formats as you type for the selected country', () => {
    expect(itiUtils.formatNumberAsYouType('2133734', 'us')).toBe('(213) 373-4');
    expect(itiUtils.formatNumberAsYouType('+4420794', 'us')).toBe('+44 20 794');
  });
  test('formats whole numbers in the requested format', () => {
    expect(itiUtils.formatNumber('02079460958', 'gb', 'E164')).toBe('+442079460958');
    expect(itiUtils.formatNumber('02079460958', 'gb', 'INTERNATIONAL')).toBe('+44 20 7946 0958');
    expect(itiUtils.formatNumber('not a number', 'gb', 'E164')).toBe('not a number');
  });
  test('validates and explains lengths', () => {
    expect(itiUtils.isValidNumber('+819012345678', 'jp')).toBe(true);
    expect(itiUtils.isValidNumber('+81901', 'jp')).toBe(false);
    expect(itiUtils.getValidationError('+1213', 'us')).toBe('TOO_SHORT');
    expect(itiUtils.getValidationError('+12133734253', 'us')).toBe('IS_POSSIBLE');
  });
  test('gives the core number and extension', () => {
    expect(itiUtils.getCoreNumber('(213) 373-4253', 'us')).toBe('2133734253');
    expect(itiUtils.getExtension('+1 213 373 4253 ext. 42', 'us')).toBe('42');
  });
});
