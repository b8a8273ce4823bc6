/**
 * Where a product, bundle or collection stands in the store's order: one control for all three, with the
 * API's one rule and message (docs/decisions/206-console-collections-and-bundles.md).
 */
import { TextField } from '../forms/TextField.tsx';
import { textOf } from './use-console-form.tsx';

type PositionFieldProps = {
  /** Where lower numbers come first, e.g. "in the shop". */
  where: string;
  defaultValue?: number | undefined;
  error?: string;
  /** On a form that may leave it empty (a new collection or bundle goes last). */
  optional?: boolean;
};

export function PositionField({ where, defaultValue, error, optional = false }: PositionFieldProps) {
  return (
    <TextField
      name="position"
      label="Position"
      hint={`Lower numbers come first ${where}.${optional ? ' Empty: after the last one.' : ''}`}
      inputMode="numeric"
      defaultValue={defaultValue === undefined ? '' : String(defaultValue)}
      {...(error ? { error } : {})}
    />
  );
}

/**
 * The typed position: a number, undefined when left empty, or NaN when it is no whole number, which
 * reaches the API as null and is answered next to its field.
 */
export function positionOf(data: FormData): number | undefined {
  const typed = textOf(data, 'position').trim();
  if (typed === '') return undefined;
  return /^\d+$/.test(typed) ? Number(typed) : Number.NaN;
}
