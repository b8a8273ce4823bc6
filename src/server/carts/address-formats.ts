import { postalCodeProblem } from '../../lib/address-format.ts';
import { addressFormat } from '../../lib/address-format-data.ts';
import { invalidField } from '../http/errors.ts';

/** Refuses a postal code that does not fit its country's known format (422 on `zip`, naming an example). */
export function checkPostalCode(address: { country: string; zip: string }): void {
  const problem = postalCodeProblem(addressFormat(address.country), address.zip);
  if (problem) throw invalidField('zip', problem);
}
