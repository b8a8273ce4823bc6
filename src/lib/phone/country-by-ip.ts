/** The failure message of the country lookup (spec §8). */
export const COUNTRY_LOOKUP_FAILED = 'unable to fetch the country';
/** Off the network the lookup must not hold the phone field up. */
export const COUNTRY_LOOKUP_TIMEOUT_MS = 1500;

export type CountryLookupAnswer = { ok: true; country: string } | { ok: false; error: string };

/**
 * Reads the lookup service's plain-text answer: a success only when it begins with `1`, the
 * country being the characters at (zero-based) positions 2–3. Services of this kind answer
 * `1;GB;GBR;United Kingdom` (ip2c.org), so that is `GB`; `0;;;` or anything else is a failure.
 */
export function parseCountryAnswer(text: string): CountryLookupAnswer {
  const country = text.slice(2, 4);
  if (!text.startsWith('1') || !/^[A-Za-z]{2}$/.test(country)) return { ok: false, error: COUNTRY_LOOKUP_FAILED };
  return { ok: true, country: country.toUpperCase() };
}

export type CountryLookupOptions = {
  /** Lookup URL (PUBLIC_GEOIP_URL); without one the fallback is used straight away. */
  url?: string | undefined;
  preferredCountries?: readonly string[];
  /** The dial-code list in display order; its first entry is the last resort. */
  countries: readonly { iso2: string }[];
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
};

export type CountryLookupResult = { country: string; source: 'lookup' | 'fallback'; error?: string };

/** First preferred country, else the first listed (upper-case iso2). */
export function fallbackCountry(
  preferred: readonly string[] | undefined,
  countries: readonly { iso2: string }[],
): string {
  return (preferred?.[0] ?? countries[0]?.iso2 ?? 'US').toUpperCase();
}

/** Country by IP: GET the lookup URL, parse the answer, fall back on any failure (spec §7). */
export async function detectCountryByIp(options: CountryLookupOptions): Promise<CountryLookupResult> {
  const fallback = (): CountryLookupResult => ({
    country: fallbackCountry(options.preferredCountries, options.countries),
    source: 'fallback',
    error: COUNTRY_LOOKUP_FAILED,
  });
  if (!options.url) return fallback();
  const doFetch = options.fetch ?? globalThis.fetch;
  try {
    const response = await doFetch(options.url, {
      method: 'GET',
      signal: AbortSignal.timeout(options.timeoutMs ?? COUNTRY_LOOKUP_TIMEOUT_MS),
    });
    if (!response.ok) return fallback();
    const answer = parseCountryAnswer(await response.text());
    return answer.ok ? { country: answer.country, source: 'lookup' } : fallback();
  } catch {
    // Offline, timed out or refused: the phone field still needs a country, so the fallback applies.
    return fallback();
  }
}
