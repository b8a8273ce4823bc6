import {
  AsYouType,
  ParseError,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js';
import type { ItiUtils } from 'intl-tel-input';

/**
 * intl-tel-input's `utils` backed by libphonenumber-js, so the page carries one copy of the
 * phone metadata instead of two (intl-tel-input ships its own ≈260 KB build of Google's library).
 */
const country = (iso2: string | undefined): CountryCode | undefined =>
  iso2 ? (iso2.toUpperCase() as CountryCode) : undefined;

function tryParse(number: string, iso2: string | undefined): PhoneNumber | null {
  try {
    return parsePhoneNumberWithError(number, { defaultCountry: country(iso2), extract: false });
  } catch (error) {
    if (error instanceof ParseError) return null;
    throw error;
  }
}

const FORMATS = { E164: 'E.164', INTERNATIONAL: 'INTERNATIONAL', NATIONAL: 'NATIONAL', RFC3966: 'RFC3966' } as const;

const itiUtils: ItiUtils = {
  formatNumber(number, iso2, format = 'E164') {
    return tryParse(number, iso2)?.format(FORMATS[format]) ?? number;
  },
  formatNumberAsYouType(number, iso2) {
    return new AsYouType(country(iso2)).input(number);
  },
  getCoreNumber(number, iso2) {
    return tryParse(number, iso2)?.nationalNumber ?? '';
  },
  // The field shows its own placeholder ('Enter a phone number'), so no example numbers are needed.
  getExampleNumber() {
    return '';
  },
  getExtension(number, iso2) {
    return tryParse(number, iso2)?.ext ?? '';
  },
  getNumberType() {
    return null;
  },
  getValidationError(number, iso2) {
    const result = validatePhoneNumberLength(number, country(iso2));
    if (result === undefined) return 'IS_POSSIBLE';
    if (result === 'INVALID_COUNTRY' || result === 'NOT_A_NUMBER') return 'INVALID_COUNTRY_CODE';
    return result;
  },
  isValidNumber(number, iso2) {
    return tryParse(number, iso2)?.isValid() ?? false;
  },
  isValidNumberPrecise(number, iso2) {
    return tryParse(number, iso2)?.isValid() ?? false;
  },
};

export default itiUtils;
