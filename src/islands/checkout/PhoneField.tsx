/**
 * The address form's phone: the forms issue's PhoneInput (country picker, spec §5 rules). The
 * cart stores the number in E.164 (`+12175550100`) so the server and the order page read one form.
 */
import type { FieldResult } from '../../lib/validation/index.ts';
import { PhoneInput, type PhoneValue } from '../forms/PhoneInput.tsx';

export type PhoneFieldProps = {
  /** The saved number, shown when the form opens (a second visit). */
  initialValue: string;
  onChange: (value: string) => void;
  /** The field's outcome: an empty phone is missing, a wrong one invalid. */
  onValidity: (result: FieldResult) => void;
  showErrors: boolean;
  error?: string | undefined;
  /** The shipping country: the phone's country follows it until the shopper picks one. */
  shippingCountry: string | null;
};

/** E.164 for a valid number; what was typed otherwise (the form is invalid then anyway). */
export function phoneToSave(phone: PhoneValue): string {
  return phone.valid && phone.countryCode ? `+${phone.countryCode}${phone.nationalNumber}` : phone.raw.trim();
}

export function PhoneField({
  initialValue,
  onChange,
  onValidity,
  showErrors,
  error,
  shippingCountry,
}: PhoneFieldProps) {
  return (
    <PhoneInput
      label="Phone"
      required
      defaultValue={initialValue}
      followCountry={shippingCountry}
      showErrors={showErrors}
      error={error}
      onChange={(phone) => onChange(phoneToSave(phone))}
      onValidity={onValidity}
    />
  );
}
