/**
 * The card fields: Stripe's CardNumberElement, CardExpiryElement and CardCvcElement (real Stripe.js
 * or the test-mode stand-in, same components), plus 'Name on card'. Each field keeps its spec §3
 * validity flag in $checkout; the email flag is the contact email's (asked once, in the address).
 */
import { useStore } from '@nanostores/react';
import { CardCvcElement, CardExpiryElement, CardNumberElement } from '@stripe/react-stripe-js';
import { useState, type ReactNode } from 'react';
import type { CardFlag } from '../../lib/checkout-rules.ts';
import { $attempted, $checkout, setCardFlag } from '../../stores/checkout.ts';
import { FieldSlot } from './FieldSlot.tsx';
import { Field } from '../forms/Field.tsx';
import { TextField } from '../forms/TextField.tsx';

type StripeFieldChange = {
  complete: boolean;
  empty: boolean;
  error?: { message: string } | undefined;
};

const ELEMENT_OPTIONS = { disableLink: true, style: { base: { fontSize: '16px' } } } as const;

export type CardFormProps = {
  name: string;
  onName: (value: string) => void;
  disabled: boolean;
};

function CardElementField({
  label,
  flag,
  children,
}: {
  label: string;
  flag: Exclude<CardFlag, 'cardName' | 'cardEmail'>;
  children: (onChange: (e: StripeFieldChange) => void) => ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [empty, setEmpty] = useState(true);
  const valid = useStore($checkout)[flag];
  const attempted = useStore($attempted);
  const onChange = (event: StripeFieldChange) => {
    setCardFlag(flag, event.complete && !event.error);
    setError(event.error?.message ?? null);
    setEmpty(event.empty);
  };
  // After a refused Place order an untouched or unfinished field says so too (spec §5's wording).
  const message = error ?? (attempted && !valid ? `${label} ${empty ? 'is required' : 'is incomplete'}.` : null);
  // Not a <label>: Stripe's own input lives in an iframe and is labelled there, so the message is announced.
  return (
    <FieldSlot name={flag}>
      <Field label={label} labelPlacement="visual" error={message} announceError className="card-field">
        {() => <div className="card-field__element">{children(onChange)}</div>}
      </Field>
    </FieldSlot>
  );
}

export function CardForm({ name, onName, disabled }: CardFormProps) {
  const attempted = useStore($attempted);
  return (
    <fieldset className="checkout__card" disabled={disabled} aria-label="Card details">
      <legend>Payment</legend>
      <CardElementField label="Card number" flag="cardNumber">
        {(onChange) => <CardNumberElement options={ELEMENT_OPTIONS} onChange={onChange} />}
      </CardElementField>
      <div className="checkout__row">
        <CardElementField label="Expiration date" flag="cardExpiry">
          {(onChange) => <CardExpiryElement options={ELEMENT_OPTIONS} onChange={onChange} />}
        </CardElementField>
        <CardElementField label="CVC" flag="cardCvc">
          {(onChange) => <CardCvcElement options={ELEMENT_OPTIONS} onChange={onChange} />}
        </CardElementField>
      </div>
      <FieldSlot name="cardName">
        <TextField
          name="cardName"
          label="Name on card"
          autoComplete="cc-name"
          rules="required"
          value={name}
          onValueChange={onName}
          onValidity={(result) => setCardFlag('cardName', result.valid)}
          showErrors={attempted}
        />
      </FieldSlot>
    </fieldset>
  );
}
