/**
 * The whole country/region dataset, loaded eagerly: for server rendering and mail only. Islands
 * use `loadCountries()` (countries.ts), which fetches it when an address form first needs it.
 */
import { allCountries } from 'country-region-data';
import { normalizeCountryData } from './countries.ts';

export const ALL_COUNTRIES = normalizeCountryData(allCountries);
