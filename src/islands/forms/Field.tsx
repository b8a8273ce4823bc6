import { useId, type ReactNode } from 'react';
import './forms.css';

/** The attributes that tie a control to its field's label, hint and message. */
export type ControlAria = {
  id: string;
  'aria-required': true | undefined;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

export type FieldProps = {
  label: string;
  /** Marks the label with ' *' and the control with aria-required. */
  required?: boolean | undefined;
  /** A lasting help text under the control. */
  hint?: string | null | undefined;
  /** The message shown now (a rule's after blur, or the server's); none when undefined. */
  error?: string | null | undefined;
  /**
   * 'before' (default) or 'after' the control (checkboxes); 'visual' for a control labelled inside
   * its own frame (Stripe's card inputs), where a <label> could point at nothing.
   */
  labelPlacement?: 'before' | 'after' | 'visual';
  /** Announce the message as it appears (for controls that do not say they are invalid themselves). */
  announceError?: boolean;
  id?: string | undefined;
  className?: string | undefined;
  /** The control(s): spread `aria` on the one the label names. */
  children: (aria: ControlAria) => ReactNode;
};

/**
 * One form field: label, control, hint and message, with the aria wiring between them
 * (aria-invalid and aria-describedby while a message shows, aria-required for required fields).
 * Every control of the forms library renders through it.
 */
export function Field({
  label,
  required = false,
  hint,
  error,
  labelPlacement = 'before',
  announceError = false,
  id,
  className,
  children,
}: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? `field-${generatedId}`;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  const aria: ControlAria = {
    id: controlId,
    'aria-required': required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
  const labelElement =
    labelPlacement === 'visual' ? (
      <span className="sf-field__label" aria-hidden="true">
        {label}
      </span>
    ) : (
      <label className={labelPlacement === 'after' ? 'sf-checkbox__label' : 'sf-field__label'} htmlFor={controlId}>
        {label}
        {required && labelPlacement === 'before' ? <span aria-hidden="true"> *</span> : null}
      </label>
    );
  return (
    <div className={['sf-field', className].filter(Boolean).join(' ')}>
      {labelPlacement === 'after' ? null : labelElement}
      {children(aria)}
      {labelPlacement === 'after' ? labelElement : null}
      {hint ? (
        <p id={hintId} className="sf-field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="sf-field__error" role={announceError ? 'alert' : undefined}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
