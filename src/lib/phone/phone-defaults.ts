/**
 * What the phone field knows before libphonenumber-js has loaded: the browser loads the parser only
 * once the field is used (docs/decisions/195-lighter-checkout.md), so an empty field is answered here.
 */
import type { ParsedPhone } from './parse-phone.ts';

/** The country of a number typed without `+` when none is chosen (spec §9). */
export const DEFAULT_PHONE_COUNTRY = 'US';

/** What `parsePhone('')` answers with `country` selected: not a number, read as that country's. */
export function emptyPhone(country: string): ParsedPhone {
  return {
    country: country.toUpperCase(),
    countryCode: undefined,
    formatted: '',
    valid: false,
    possible: false,
    nationalNumber: '',
    error: 'not_a_number',
  };
}
