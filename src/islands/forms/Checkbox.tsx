import { useId, useState } from 'react';
import type { FieldResult, RuleSet, ValidateOptions } from '../../lib/validation/index.ts';
import { hasRequiredRule, useFieldValidation } from './use-field-validation.ts';
import './forms.css';

export type CheckboxProps = {
  name: string;
  label: string;
  checked?: boolean;
  defaultChecked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  /** e.g. 'accepted' for terms boxes; 'required' also fails when unticked. */
  rules?: RuleSet;
  messages?: ValidateOptions['messages'];
  showErrors?: boolean;
  error?: string;
  onValidity?: (result: FieldResult) => void;
  value?: string;
  disabled?: boolean;
  id?: string;
};

/** A labelled checkbox; its rule messages appear as soon as it changes (spec §5: on change for checkboxes). */
export function Checkbox(props: CheckboxProps) {
  const generatedId = useId();
  const id = props.id ?? `checkbox-${generatedId}`;
  const errorId = `${id}-error`;
  const [own, setOwn] = useState(props.defaultChecked ?? false);
  const checked = props.checked ?? own;
  const { message, touch } = useFieldValidation(checked, props.rules, {
    name: props.name,
    label: props.label,
    messages: props.messages,
    showErrors: props.showErrors,
    error: props.error,
    onValidity: props.onValidity,
  });
  return (
    <div className="sf-field sf-checkbox">
      <input
        id={id}
        type="checkbox"
        className="sf-checkbox__input"
        name={props.name}
        value={props.value ?? 'on'}
        checked={checked}
        disabled={props.disabled}
        aria-required={hasRequiredRule(props.rules) || undefined}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? errorId : undefined}
        onChange={(event) => {
          const next = event.currentTarget.checked;
          setOwn(next);
          touch();
          props.onCheckedChange?.(next);
        }}
      />
      <label className="sf-checkbox__label" htmlFor={id}>
        {props.label}
      </label>
      {message ? (
        <p id={errorId} className="sf-field__error">
          {message}
        </p>
      ) : null}
    </div>
  );
}
