/**
 * Country / region reference data (spec §3) from `country-region-data`, for the address selects.
 * The data is ≈130 KB, so it is only reached through `loadCountries()` (a dynamic import):
 * pages that do not show an address form never download it.
 */

export type Region = {
  name: string;
  /** Absent for some regions; may repeat within a country — both kept as the package has them. */
  shortCode?: string;
};
export type CountryRegions = {
  countryName: string;
  /** Two-letter code, upper case. */
  countryShortCode: string;
  regions: Region[];
};

/** The package's compact row: [countryName, countryShortCode, [regionName, regionShortCode][]]. */
export type CountryTuple = readonly [string, string, readonly (readonly [string, string])[]];

/**
 * Package rows → our shape, United States first, then the rest alphabetically by English name.
 * The package writes a missing shortCode as "undefined" or "" in its module build; both become absent.
 */
export function normalizeCountryData(rows: readonly CountryTuple[]): CountryRegions[] {
  const countries = rows.map(([countryName, countryShortCode, regions]): CountryRegions => ({
    countryName,
    countryShortCode,
    regions: regions.map(([name, shortCode]) =>
      shortCode && shortCode !== 'undefined' ? { name, shortCode } : { name },
    ),
  }));
  const byName = (a: CountryRegions, b: CountryRegions) => a.countryName.localeCompare(b.countryName, 'en');
  return [
    ...countries.filter((country) => country.countryShortCode === 'US'),
    ...countries.filter((country) => country.countryShortCode !== 'US').sort(byName),
  ];
}

/** The value an address stores for a region: its shortCode, or its name when it has none. */
export function regionValue(region: Region): string {
  return region.shortCode || region.name;
}

/** Regions of `countryShortCode` that can be offered (nameless entries are skipped). */
export function regionsOf(countries: readonly CountryRegions[], countryShortCode: string | null | undefined): Region[] {
  const country = countries.find((entry) => entry.countryShortCode === countryShortCode);
  return (country?.regions ?? []).filter((region) => region.name.trim() !== '');
}

let loading: Promise<CountryRegions[]> | null = null;

/** Loads and normalises the data once per page. */
export function loadCountries(): Promise<CountryRegions[]> {
  loading ??= import('country-region-data').then((module) =>
    normalizeCountryData(module.allCountries as unknown as readonly CountryTuple[]),
  );
  return loading;
}
