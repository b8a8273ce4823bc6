import { useEffect, useRef, useState } from 'react';
import { validate, type FieldResult, type RuleSet, type ValidateOptions } from '../../lib/validation/index.ts';

export type FieldValidationOptions = Pick<ValidateOptions, 'name' | 'label' | 'form' | 'messages'> & {
  /** Show messages even before the shopper leaves the field (e.g. after a submit attempt). */
  showErrors?: boolean | undefined;
  /** A message from elsewhere (a 422 from the server) shown instead of the rules' own. */
  error?: string | undefined;
  onValidity?: ((result: FieldResult) => void) | undefined;
};

/** Runs a field's rules on every value and reveals the first message once the field is touched. */
export function useFieldValidation(value: unknown, rules: RuleSet | undefined, options: FieldValidationOptions) {
  const [touched, setTouched] = useState(false);
  const result = validate(value, rules, options);
  const onValidity = useRef(options.onValidity);
  onValidity.current = options.onValidity;
  const key = `${result.valid}|${result.errors.map((error) => error.message).join('|')}`;
  useEffect(() => {
    onValidity.current?.(result);
    // Report only when the outcome changes, not on every render.
  }, [key]);
  const shown = options.error ?? (touched || options.showErrors ? result.errors[0]?.message : undefined);
  return { result, message: shown, touch: () => setTouched(true) };
}

/**
 * Holds a text field's typed value and hands it on `delay` ms after the last keystroke
 * (spec §9: text inputs have a 20 ms input delay); `flush` hands it on at once (on blur).
 */
export function useDelayedCommit(initial: string, delay: number, onCommit: (value: string) => void) {
  const [draft, setDraft] = useState(initial);
  const [committed, setCommitted] = useState(initial);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const commitRef = useRef(onCommit);
  commitRef.current = onCommit;
  const commit = (value: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setCommitted(value);
    commitRef.current(value);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return {
    draft,
    committed,
    /** The parent changed the value: show it without echoing it back. */
    reset(value: string) {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      setDraft(value);
      setCommitted(value);
    },
    type(value: string) {
      setDraft(value);
      if (timer.current) clearTimeout(timer.current);
      if (delay <= 0) commit(value);
      else timer.current = setTimeout(() => commit(value), delay);
    },
    flush() {
      if (timer.current || draft !== committed) commit(draft);
    },
  };
}

/** Whether a rule set asks for a value (so the control gets `aria-required`). */
export function hasRequiredRule(rules: RuleSet | undefined): boolean {
  if (!rules) return false;
  if (typeof rules === 'string') return rules.split('|').some((rule) => rule.trim() === 'required');
  return rules.some((rule) =>
    typeof rule === 'string'
      ? rule === 'required'
      : Array.isArray(rule)
        ? rule[0] === 'required'
        : (rule as { name: string }).name === 'required',
  );
}
