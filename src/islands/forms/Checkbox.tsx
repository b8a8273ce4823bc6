import { useState } from 'react';
import type { FieldResult, RuleSet, ValidateOptions } from '../../lib/validation/index.ts';
import { Field } from './Field.tsx';
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
    <Field
      label={props.label}
      labelPlacement="after"
      required={hasRequiredRule(props.rules)}
      error={message}
      id={props.id}
      className="sf-checkbox"
    >
      {(aria) => (
        <input
          {...aria}
          type="checkbox"
          className="sf-checkbox__input"
          name={props.name}
          value={props.value ?? 'on'}
          checked={checked}
          disabled={props.disabled}
          onChange={(event) => {
            const next = event.currentTarget.checked;
            setOwn(next);
            touch();
            props.onCheckedChange?.(next);
          }}
        />
      )}
    </Field>
  );
}
