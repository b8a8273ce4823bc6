/**
 * The phone field's libraries, which a page loads only once the field is used
 * (docs/decisions/195-lighter-checkout.md): intl-tel-input for the typing, libphonenumber-js with its
 * metadata for reading the number, and the dial-code list taken from intl-tel-input's own copy.
 */
import intlTelInput from 'intl-tel-input';
import { parsePhone } from '../../lib/phone/parse-phone.ts';
import { phoneCountries, type CountryListOptions } from '../../lib/phone/phone-countries.ts';

export { intlTelInput, parsePhone };

/** The dial-code list for these options, from the list intl-tel-input already carries. */
export function countryList(options: CountryListOptions) {
  return phoneCountries(intlTelInput.getAllCountries(), options);
}
