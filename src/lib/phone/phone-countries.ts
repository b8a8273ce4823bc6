/** A country of the phone dial-code list (spec §3): English name, lower-case iso2, dial code, priority, area codes. */
export type PhoneCountry = {
  name: string;
  iso2: string;
  dialCode: string;
  /** Order among countries sharing a dial code (0 = main country, e.g. US for +1). */
  priority: number;
  areaCodes: readonly string[] | null;
};

export type CountryListOptions = {
  /** Only these iso2 codes (any case); others are left out and numbers from them are invalid. */
  onlyCountries?: readonly string[];
  /** These iso2 codes are left out and numbers from them are invalid. */
  ignoredCountries?: readonly string[];
  /** Shown first, in this order, above the alphabetical rest. */
  preferredCountries?: readonly string[];
  locale?: string;
};

const lower = (codes: readonly string[] | undefined): Set<string> | null =>
  codes && codes.length > 0 ? new Set(codes.map((code) => code.toLowerCase())) : null;

/**
 * One entry of intl-tel-input's dial-code list. The list is passed in rather than imported: the browser
 * reads the copy inside intl-tel-input itself (`intlTelInput.getAllCountries()`), so a page never carries
 * its `intl-tel-input/data` copy as well (docs/decisions/195-lighter-checkout.md).
 */
export type DialCodeEntry = Pick<PhoneCountry, 'iso2' | 'dialCode' | 'priority' | 'areaCodes'>;

const displayNames = new Map<string, Intl.DisplayNames>();

/** A country's English (or `locale`) name as the dial-code list shows it. */
export function phoneCountryName(iso2: string, locale = 'en'): string {
  let names = displayNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region' });
    displayNames.set(locale, names);
  }
  return names.of(iso2.toUpperCase()) ?? iso2.toUpperCase();
}

/** Whether `iso2` may be used given only-countries / ignored-countries. */
export function isCountryAllowed(
  iso2: string,
  options: Pick<CountryListOptions, 'onlyCountries' | 'ignoredCountries'>,
): boolean {
  const code = iso2.toLowerCase();
  const only = lower(options.onlyCountries);
  const ignored = lower(options.ignoredCountries);
  if (only && !only.has(code)) return false;
  if (ignored?.has(code)) return false;
  return true;
}

/** The dial-code list: allowed countries, preferred ones first, the rest by English name. */
export function phoneCountries(data: readonly DialCodeEntry[], options: CountryListOptions = {}): PhoneCountry[] {
  const all = data
    .filter((country) => isCountryAllowed(country.iso2, options))
    .map((country): PhoneCountry => ({
      name: phoneCountryName(country.iso2, options.locale),
      iso2: country.iso2,
      dialCode: country.dialCode,
      priority: country.priority,
      areaCodes: country.areaCodes,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, options.locale ?? 'en'));
  const preferred = (options.preferredCountries ?? []).map((code) => code.toLowerCase());
  const first = preferred.flatMap((code) => all.filter((country) => country.iso2 === code));
  return [...first, ...all.filter((country) => !preferred.includes(country.iso2))];
}
