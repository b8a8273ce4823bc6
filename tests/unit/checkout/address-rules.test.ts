/**
 * The checkout's address rules (spec §5 rule strings, checked in the browser) and the API's address
 * payload (src/lib/contract/payloads.ts) must ask for the same fields: a field the API requires but the
 * form lets through would only fail after "Save address". The form may ask for more (the phone).
 */
import { expect, test } from 'vitest';
import { ADDRESS_FIELDS, type AddressField } from '../../../src/lib/checkout-address.ts';
import { addressPayload } from '../../../src/lib/contract/payloads.ts';
import { ADDRESS_RULES } from '../../../src/islands/checkout/AddressForm.tsx';
import { adaAddress } from './fixtures/carts.ts';

/** Fields whose control owns its required rule instead of ADDRESS_RULES. */
const REQUIRED_BY_CONTROL: readonly AddressField[] = ['state', 'phone'];

const formRequires = (field: AddressField) =>
  REQUIRED_BY_CONTROL.includes(field) ||
  (ADDRESS_RULES[field as keyof typeof ADDRESS_RULES] ?? '').split('|').includes('required');

const apiRequires = (field: AddressField) =>
  !addressPayload.safeParse({ cart: { ...adaAddress, [field]: '' } }).success;

test('the complete address is accepted by the API', () => {
  expect(addressPayload.safeParse({ cart: adaAddress }).success).toBe(true);
});

test.each(ADDRESS_FIELDS.map((field) => [field]))('%s: the form asks for it whenever the API does', (field) => {
  if (apiRequires(field)) expect(formRequires(field)).toBe(true);
});
