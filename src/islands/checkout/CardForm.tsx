/**
 * The card fields: Stripe's CardNumberElement, CardExpiryElement and CardCvcElement (real Stripe.js
 * or the test-mode stand-in, same components), plus 'Name on card' and 'Email'. Each field keeps
 * its spec §3 validity flag in $checkout.
 */
import { CardCvcElement, CardExpiryElement, CardNumberElement } from '@stripe/react-stripe-js';
import { useState, type ReactNode } from 'react';
import type { CardFlag } from '../../lib/checkout-rules.ts';
import { setCardFlag } from '../../stores/checkout.ts';
import { Field } from '../forms/Field.tsx';
import { TextField } from '../forms/TextField.tsx';

type StripeFieldChange = {
  complete: boolean;
  error?: { message: string } | undefined;
};

const ELEMENT_OPTIONS = { disableLink: true, style: { base: { fontSize: '16px' } } } as const;

export type CardFormProps = {
  name: string;
  email: string;
  onName: (value: string) => void;
  onEmail: (value: string) => void;
  disabled: boolean;
};

function CardElementField({
  label,
  flag,
  children,
}: {
  label: string;
  flag: CardFlag;
  children: (onChange: (e: StripeFieldChange) => void) => ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const onChange = (event: StripeFieldChange) => {
    setCardFlag(flag, event.complete && !event.error);
    setError(event.error?.message ?? null);
  };
  // Not a <label>: Stripe's own input lives in an iframe and is labelled there, so the message is announced.
  return (
    <Field label={label} labelPlacement="visual" error={error} announceError className="card-field">
      {() => <div className="card-field__element">{children(onChange)}</div>}
    </Field>
  );
}

export function CardForm({ name, email, onName, onEmail, disabled }: CardFormProps) {
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
      <TextField
        name="cardName"
        label="Name on card"
        autoComplete="cc-name"
        rules="required"
        value={name}
        onValueChange={onName}
        onValidity={(result) => setCardFlag('cardName', result.valid)}
      />
      <TextField
        name="cardEmail"
        label="Email"
        type="email"
        autoComplete="email"
        rules="required|email"
        value={email}
        onValueChange={onEmail}
        onValidity={(result) => setCardFlag('cardEmail', result.valid)}
      />
    </fieldset>
  );
}
