import type { PhoneCountry } from './phone-countries.ts';
import { PHONE_LIMITS } from './phone-limits.ts';

const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/**
 * The calling code a dialled number starts with: the listed dial code among its first 1–3 digits
 * (spec §9: a calling code has at most 3 digits; codes are prefix-free, so the first match is it).
 */
export function callingCodeOf(
  digits: string,
  countries: readonly Pick<PhoneCountry, 'dialCode'>[],
): string | undefined {
  for (let length = 1; length <= Math.min(PHONE_LIMITS.maxCallingCodeLength, digits.length); length++) {
    const code = digits.slice(0, length);
    if (countries.some((country) => country.dialCode === code)) return code;
  }
  return undefined;
}

/**
 * Countries matching `query` by name, iso2 or dial code (spec §9), best first:
 * exact iso2 or dial code, then name prefix, then name containing, then dial-code prefix.
 * A dial-code query longer than its calling code (`+44 20 7946…`) matches the countries of that
 * code, the one whose area code follows first (`+1 684…` is American Samoa).
 */
export function searchCountries(countries: readonly PhoneCountry[], query: string): PhoneCountry[] {
  const q = fold(query);
  if (q === '') return [...countries];
  const isDialQuery = /^\+?[\d\s().-]+$/.test(q);
  const digits = isDialQuery ? q.replace(/\D/g, '') : '';
  const code = isDialQuery ? callingCodeOf(digits, countries) : undefined;
  const rest = code ? digits.slice(code.length) : '';
  const areaMatch = (country: PhoneCountry) =>
    rest !== '' && country.areaCodes?.some((area) => rest.startsWith(area)) ? 0 : 1;
  const scored: { country: PhoneCountry; score: number; index: number }[] = [];
  countries.forEach((country, index) => {
    const name = fold(country.name);
    let score = -1;
    if (country.iso2 === q) score = 0;
    else if (isDialQuery && (country.dialCode === digits || country.dialCode === code)) score = 1;
    else if (name.startsWith(q)) score = 2;
    else if (name.split(/[\s,()-]+/).some((word) => word.startsWith(q))) score = 3;
    else if (name.includes(q)) score = 4;
    else if (isDialQuery && digits !== '' && country.dialCode.startsWith(digits)) score = 5;
    if (score >= 0) scored.push({ country, score, index });
  });
  // Within a score keep the list order, but for a shared dial code the area code's country, then
  // the main country (priority 0), first.
  return scored
    .sort(
      (a, b) =>
        a.score - b.score ||
        (a.score === 1 ? areaMatch(a.country) - areaMatch(b.country) || a.country.priority - b.country.priority : 0) ||
        a.index - b.index,
    )
    .map((entry) => entry.country);
}
