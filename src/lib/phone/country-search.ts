import type { PhoneCountry } from './phone-countries.ts';

const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/**
 * Countries matching `query` by name, iso2 or dial code (spec §9), best first:
 * exact iso2 or dial code, then name prefix, then name containing, then dial-code prefix.
 */
export function searchCountries(countries: readonly PhoneCountry[], query: string): PhoneCountry[] {
  const q = fold(query);
  if (q === '') return [...countries];
  const digits = q.replace(/^\+/, '');
  const isDialQuery = /^\d+$/.test(digits);
  const scored: { country: PhoneCountry; score: number; index: number }[] = [];
  countries.forEach((country, index) => {
    const name = fold(country.name);
    let score = -1;
    if (country.iso2 === q) score = 0;
    else if (isDialQuery && country.dialCode === digits) score = 1;
    else if (name.startsWith(q)) score = 2;
    else if (name.split(/[\s,()-]+/).some((word) => word.startsWith(q))) score = 3;
    else if (name.includes(q)) score = 4;
    else if (isDialQuery && country.dialCode.startsWith(digits)) score = 5;
    if (score >= 0) scored.push({ country, score, index });
  });
  // Within a score keep the list order, but main countries of a shared dial code (priority 0) first.
  return scored
    .sort((a, b) => a.score - b.score || (a.score === 1 ? a.country.priority - b.country.priority : 0) || a.index - b.index)
    .map((entry) => entry.country);
}
