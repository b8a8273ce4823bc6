/** Phone number rules and country-list logic (spec §5, §9); framework-free, usable on the server. */
export { PHONE_LIMITS, parsePhone, resolveDisplayMode } from './parse-phone.ts';
export { phoneCountries } from './phone-countries.ts';
export { searchCountries } from './country-search.ts';
export { dropdownDirection } from './dropdown-direction.ts';
export { findByPrefix, initialTypeToFind, isTypeToFindKey, spaceContinuesQuery, typeToFind } from './type-to-find.ts';
export { listKeyAction } from './list-keys.ts';
export { COUNTRY_LOOKUP_FAILED, detectCountryByIp, parseCountryAnswer } from './country-by-ip.ts';
