/**
 * Contact and shipping address. No save button: stores/checkout.ts saves it with
 * `PUT store_front/{slug}/cart` as it changes (the server prices tax and shipping from it), and
 * Place order saves what is left. Built from the forms components; the country data loads lazily.
 */
import { useStore } from '@nanostores/react';
import { useMemo, type SubmitEvent } from 'react';
import { postalCodeLabel, postalCodeMessage, postalCodePattern, regionLabel } from '../../lib/address-format.ts';
import type { AddressField } from '../../lib/checkout-address.ts';
import type { FieldResult, RuleSet } from '../../lib/validation/index.ts';
import {
  $address,
  $addressErrors,
  $addressMessage,
  $addressSaved,
  $attempted,
  $savingAddress,
  changeAddress,
  recordAddressValidity,
  saveAddress,
} from '../../stores/checkout.ts';
import { CountrySelect } from '../forms/CountrySelect.tsx';
import { FormMessage } from '../forms/FormMessage.tsx';
import { StateSelect } from '../forms/StateSelect.tsx';
import { TextField } from '../forms/TextField.tsx';
import { useAddressFormat } from '../forms/use-address-format.ts';
import { FieldSlot } from './FieldSlot.tsx';
import { PhoneField } from './PhoneField.tsx';

/** Rules per field; address_line2 is optional. State is required (spec §5) — StateSelect owns that rule. */
export const ADDRESS_RULES = {
  first_name: 'required',
  last_name: 'required',
  email: 'required|email',
  address_line1: 'required',
  city: 'required',
  country: 'required',
  zip: 'required',
} as const;

export type AddressFormProps = {
  slug: string;
};

export function AddressForm({ slug }: AddressFormProps) {
  const values = useStore($address);
  const errors = useStore($addressErrors);
  const showErrors = useStore($attempted);
  const formMessage = useStore($addressMessage);
  const saving = useStore($savingAddress);
  const saved = useStore($addressSaved);
  const onChange = changeAddress;
  // Labels and the postal code's format follow the chosen country (docs/decisions/181-address-formats.md).
  const format = useAddressFormat(values.country || null);
  const zip = useMemo(() => {
    const pattern = postalCodePattern(format);
    const rules: RuleSet = pattern ? ['required', { name: 'matches', args: [pattern] }] : ADDRESS_RULES.zip;
    return { label: postalCodeLabel(format), rules, messages: { matches: postalCodeMessage(format) } };
  }, [format]);
  const validity = (field: AddressField) => (result: FieldResult) => recordAddressValidity(field, result);
  const text = (
    field: AddressField,
    label: string,
    extra: {
      autoComplete?: string;
      type?: 'text' | 'email';
      optional?: boolean;
      rules?: RuleSet;
      messages?: Record<string, string>;
    } = {},
  ) => (
    <FieldSlot name={field}>
      <TextField
        name={field}
        label={label}
        type={extra.type ?? 'text'}
        autoComplete={extra.autoComplete}
        value={values[field]}
        onValueChange={(value) => onChange(field, value)}
        rules={extra.optional ? undefined : (extra.rules ?? ADDRESS_RULES[field as keyof typeof ADDRESS_RULES])}
        messages={extra.messages}
        onValidity={validity(field)}
        showErrors={showErrors}
        error={errors[field]}
      />
    </FieldSlot>
  );
  // Enter in a field saves at once rather than after the pause.
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    void saveAddress(slug);
  };
  return (
    // data-saved: the cart is priced for exactly what is shown (end-to-end tests wait on it).
    <form className="checkout__address" onSubmit={submit} noValidate data-saved={saved && !saving}>
      <fieldset aria-label="Contact and shipping">
        <legend>Contact and shipping</legend>
        <div className="checkout__row">
          {text('first_name', 'First name', { autoComplete: 'given-name' })}
          {text('last_name', 'Last name', { autoComplete: 'family-name' })}
        </div>
        {text('email', 'Email', { autoComplete: 'email', type: 'email' })}
        {text('address_line1', 'Address line 1', { autoComplete: 'address-line1' })}
        {text('address_line2', 'Address line 2', { autoComplete: 'address-line2', optional: true })}
        {text('city', 'City', { autoComplete: 'address-level2' })}
        <div className="checkout__row">
          <FieldSlot name="country">
            <CountrySelect
              value={values.country || null}
              onChange={(value) => onChange('country', value)}
              rules="required"
              onValidity={validity('country')}
              showErrors={showErrors}
              error={errors.country}
            />
          </FieldSlot>
          <FieldSlot name="state">
            <StateSelect
              label={regionLabel(format)}
              country={values.country || null}
              value={values.state || null}
              onChange={(value) => onChange('state', value)}
              onValidity={validity('state')}
              showErrors={showErrors}
              error={errors.state}
            />
          </FieldSlot>
        </div>
        <div className="checkout__row">
          {text('zip', zip.label, { autoComplete: 'postal-code', rules: zip.rules, messages: zip.messages })}
          <FieldSlot name="phone">
            <PhoneField
              initialValue={values.phone}
              shippingCountry={values.country || null}
              onChange={(value) => onChange('phone', value)}
              onValidity={validity('phone')}
              showErrors={showErrors}
              error={errors.phone}
            />
          </FieldSlot>
        </div>
        <FormMessage message={formMessage} />
        <p className="checkout__saving" role="status">
          {saving ? 'Updating tax and shipping…' : ''}
        </p>
      </fieldset>
    </form>
  );
}
