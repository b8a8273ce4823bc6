import type { PhoneCountry } from './phone-countries.ts';

/** Typed letters are forgotten after this pause (spec §9). */
export const TYPE_TO_FIND_RESET_MS = 700;

export type TypeToFindState = { query: string; lastKeyAt: number };
export const initialTypeToFind: TypeToFindState = { query: '', lastKeyAt: -Infinity };

/** Keys that feed type-to-find: single letters (any script) and spaces inside a name. */
export function isTypeToFindKey(key: string): boolean {
  return /^[\p{L} ]$/u.test(key);
}

/** Adds `key` to the query, starting afresh when more than 700 ms passed since the previous key. */
export function typeToFind(state: TypeToFindState, key: string, now: number): TypeToFindState {
  const fresh = now - state.lastKeyAt > TYPE_TO_FIND_RESET_MS;
  return { query: (fresh ? '' : state.query) + key.toLowerCase(), lastKeyAt: now };
}

/** Index of the first country whose name starts with the query; -1 when none does. */
export function findByPrefix(countries: readonly PhoneCountry[], query: string): number {
  const q = query.toLowerCase();
  if (q.trim() === '') return -1;
  return countries.findIndex((country) =>
    country.name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().startsWith(q),
  );
}

/** A space extends a query typed within the last 700 ms ("United K…"); otherwise it selects (spec §9). */
export function spaceContinuesQuery(state: TypeToFindState, now: number): boolean {
  return state.query !== '' && now - state.lastKeyAt <= TYPE_TO_FIND_RESET_MS;
}
