import { useEffect } from 'react';
import type { FieldResult, RuleSet, ValidateOptions } from '../../lib/validation/index.ts';
import { Field } from './Field.tsx';
import { hasRequiredRule, useDelayedCommit, useFieldValidation } from './use-field-validation.ts';
import './forms.css';

/** Delay between a keystroke and the value reaching the form (spec §9). */
export const TEXT_INPUT_DELAY_MS = 20;

export type TextFieldProps = {
  name: string;
  label: string;
  /** Controlled value; when it changes from outside the field shows it. */
  value?: string;
  defaultValue?: string;
  /** Called with the value 20 ms after typing stops, and at once on blur. */
  onValueChange?: (value: string) => void;
  rules?: RuleSet;
  /** The whole form's values, for `confirm` and `require_one`. */
  form?: Readonly<Record<string, unknown>>;
  messages?: ValidateOptions['messages'];
  /** Show the message without waiting for blur (after a submit attempt). */
  showErrors?: boolean;
  /** A message from the server (422) shown instead of the rules' message. */
  error?: string;
  /** A lasting help text under the input. */
  hint?: string;
  onValidity?: (result: FieldResult) => void;
  type?: 'text' | 'email' | 'password' | 'search' | 'url' | 'number' | 'date';
  placeholder?: string;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'numeric' | 'decimal' | 'tel' | 'url' | 'search' | 'none';
  maxLength?: number;
  disabled?: boolean;
  id?: string;
  className?: string;
  delay?: number;
};

/** A labelled text input whose rule messages appear when the shopper leaves it (spec §5). */
export function TextField(props: TextFieldProps) {
  const field = useDelayedCommit(props.value ?? props.defaultValue ?? '', props.delay ?? TEXT_INPUT_DELAY_MS, (value) =>
    props.onValueChange?.(value),
  );
  useEffect(() => {
    if (props.value !== undefined && props.value !== field.committed) field.reset(props.value);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only an outside change of `value` should overwrite what is typed
  }, [props.value]);
  const { message, touch } = useFieldValidation(field.committed, props.rules, {
    name: props.name,
    label: props.label,
    form: props.form,
    messages: props.messages,
    showErrors: props.showErrors,
    error: props.error,
    onValidity: props.onValidity,
  });
  const required = hasRequiredRule(props.rules);
  return (
    <Field
      label={props.label}
      required={required}
      hint={props.hint}
      error={message}
      id={props.id}
      className={props.className}
    >
      {(aria) => (
        <input
          {...aria}
          className="sf-field__input"
          name={props.name}
          type={props.type ?? 'text'}
          value={field.draft}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          maxLength={props.maxLength}
          disabled={props.disabled}
          onChange={(event) => field.type(event.currentTarget.value)}
          onBlur={() => {
            field.flush();
            touch();
          }}
        />
      )}
    </Field>
  );
}
