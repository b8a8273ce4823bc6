/**
 * The checkout address as the form holds it: its fields, when what is shown is what the cart has
 * saved, the server's 422 messages by field, and the card's billing details drawn from it.
 */
import { isApiError } from './api-error.ts';
import type { Address } from './contract/answers.ts';
import type { BillingDetails } from './payment-flow.ts';

export type AddressField = keyof Address;

/** Every field of the address, in the form's order. */
export const ADDRESS_FIELDS: readonly AddressField[] = [
  'first_name',
  'last_name',
  'email',
  'address_line1',
  'address_line2',
  'city',
  'country',
  'state',
  'zip',
  'phone',
];

export const EMPTY_ADDRESS: Address = {
  first_name: '',
  last_name: '',
  email: '',
  address_line1: '',
  address_line2: '',
  city: '',
  country: '',
  state: '',
  zip: '',
  phone: '',
};

/** True when `shown` is `saved` but for surrounding spaces (the server trims them). */
export function sameAddress(saved: Address | null, shown: Address): boolean {
  return saved !== null && ADDRESS_FIELDS.every((field) => saved[field].trim() === shown[field].trim());
}

/** A 422's messages keyed by field ("cart.zip" or "zip") → the form's fields; none for any other error. */
export function addressErrors(error: unknown): Partial<Record<AddressField, string>> {
  if (!isApiError(error) || error.status !== 422 || !error.body?.errors) return {};
  const out: Partial<Record<AddressField, string>> = {};
  for (const [key, messages] of Object.entries(error.body.errors)) {
    const field = key.split('.').pop() as AddressField;
    if (ADDRESS_FIELDS.includes(field) && messages[0]) out[field] = messages[0];
  }
  return out;
}

/** Stripe's billing details: the name typed for the card, else the address's; the contact email (asked once). */
export function billingDetails(address: Address, cardName: string): BillingDetails {
  return {
    name: cardName.trim() || `${address.first_name} ${address.last_name}`.trim(),
    email: address.email.trim(),
    phone: address.phone,
    address: {
      line1: address.address_line1,
      line2: address.address_line2,
      city: address.city,
      state: address.state,
      postal_code: address.zip,
      country: address.country,
    },
  };
}
