/** Phone number rules and country-list logic (spec §5, §9); framework-free, usable on the server. */
export { DEFAULT_PHONE_COUNTRY, DISPLAY_MODES, PHONE_LIMITS, formatPhone, parsePhone, resolveDisplayMode } from './parse-phone.ts';
export type { DisplayMode, ParsedPhone, PhoneErrorKind, PhoneRules } from './parse-phone.ts';
export { isCountryAllowed, phoneCountries } from './phone-countries.ts';
export type { CountryListOptions, PhoneCountry } from './phone-countries.ts';
export { searchCountries } from './country-search.ts';
export { MIN_SPACE_BELOW_PX, dropdownDirection } from './dropdown-direction.ts';
export { TYPE_TO_FIND_RESET_MS, findByPrefix, initialTypeToFind, isTypeToFindKey, spaceContinuesQuery, typeToFind } from './type-to-find.ts';
export type { TypeToFindState } from './type-to-find.ts';
export { listKeyAction } from './list-keys.ts';
export type { ListKeyAction } from './list-keys.ts';
export { COUNTRY_LOOKUP_FAILED, COUNTRY_LOOKUP_TIMEOUT_MS, detectCountryByIp, fallbackCountry, parseCountryAnswer } from './country-by-ip.ts';
export type { CountryLookupAnswer, CountryLookupOptions, CountryLookupResult } from './country-by-ip.ts';
