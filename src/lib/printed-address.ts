/**
 * An address as the order page and the order email print it: country and region by name, not by
 * the codes the address stores. The country data is passed in, so this module stays free of the
 * ≈130 KB dataset (server code passes it; an island would load it with `loadCountries()`).
 */
import type { Address } from './contract/answers.ts';
import { regionValue, type CountryRegions } from './countries.ts';

/** The address's lines, empty ones left out. */
export function printedAddress(address: Address, countries: readonly CountryRegions[]): string[] {
  const country = countries.find((entry) => entry.countryShortCode === address.country);
  const region = country?.regions.find((entry) => regionValue(entry) === address.state)?.name ?? address.state;
  const place = [address.city, region].filter((part) => part.trim() !== '').join(', ');
  return [
    `${address.first_name} ${address.last_name}`,
    address.address_line1,
    address.address_line2,
    `${place} ${address.zip}`,
    country?.countryName ?? address.country,
    address.phone,
    address.email,
  ]
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
