import { parseRules, type RuleSet } from './parse-rules.ts';
import { FALLBACK_MESSAGE, RULES, isEmpty, type RuleContext, type RuleDefinition } from './rules.ts';

/** Form-level messages (spec §5); which one applies is decided in `validateForm`. */
export const FORM_INCOMPLETE = 'Form incomplete.';
export const FORM_INVALID = 'Sorry, not all fields are filled out correctly.';

export type ValidateOptions = {
  /** The field's name in the form; used for `confirm` and `require_one` and humanised for messages. */
  name?: string;
  /** What the messages call the field; defaults to the humanised name, then 'This field'. */
  label?: string;
  /** All of the form's values, for rules that look at other fields. */
  form?: Readonly<Record<string, unknown>>;
  /** Per-rule message overrides: a text, or a function of the rule's context. */
  messages?: Partial<Record<string, string | ((ctx: RuleContext) => string)>>;
  /** Extra or replacement rules for this call. */
  rules?: Readonly<Record<string, RuleDefinition>>;
  /** "Now" for date_after / date_before without an argument (tests pass a fixed day). */
  now?: Date;
};

export type RuleFailure = { rule: string; message: string };
export type FieldResult = {
  valid: boolean;
  /** Every failed rule in the order written; a field shows the first. */
  errors: RuleFailure[];
  /** True when the value is empty and a rule that judges emptiness failed (required, accepted, require_one). */
  missing: boolean;
};

/** `first_name` / `firstName` → `First name`. */
export function humanizeName(name: string): string {
  const words = name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? '' : words.charAt(0).toUpperCase() + words.slice(1);
}

function displayNameFor(options: ValidateOptions): string {
  const base = options.label?.trim() || humanizeName(options.name ?? '') || 'This field';
  // Labels such as 'State *' mark required fields; the star does not belong in '{Name} is required.'
  const clean = base.replace(/\s*\*\s*$/, '');
  return clean.charAt(0).toUpperCase() + clean.slice(1);
}

/** Checks one value against its rules and gives every failure with its message. */
export function validate(value: unknown, rules: RuleSet | undefined, options: ValidateOptions = {}): FieldResult {
  const errors: RuleFailure[] = [];
  let missing = false;
  const empty = isEmpty(value);
  for (const { name: ruleName, args } of parseRules(rules)) {
    const definition = options.rules?.[ruleName] ?? RULES[ruleName];
    const ctx: RuleContext = {
      value,
      args,
      name: options.name ?? '',
      displayName: displayNameFor(options),
      form: options.form ?? {},
      now: options.now ?? new Date(),
    };
    if (!definition) {
      // An unknown rule is a programming error; failing closed with the fallback keeps bad data out.
      errors.push({ rule: ruleName, message: FALLBACK_MESSAGE });
      continue;
    }
    if (empty && !definition.runsOnEmpty) continue;
    if (definition.check(ctx)) continue;
    if (empty) missing = true;
    const override = options.messages?.[ruleName];
    const message = typeof override === 'function' ? override(ctx) : (override ?? definition.message(ctx));
    errors.push({ rule: ruleName, message: message || FALLBACK_MESSAGE });
  }
  return { valid: errors.length === 0, errors, missing };
}

/** One field of a form schema: its rules and optionally its label and message overrides. */
export type FieldSchema = RuleSet | { rules: RuleSet; label?: string; messages?: ValidateOptions['messages'] };
export type FormSchema = Readonly<Record<string, FieldSchema>>;

export type FormResult = {
  valid: boolean;
  /** First message per failing field, keyed by field name. */
  fields: Record<string, string>;
  /** 'Form incomplete.' or 'Sorry, not all fields are filled out correctly.'; null when valid. */
  formMessage: string | null;
};

/**
 * The form-level message of spec §5 for a submitted form, beside its fields' own messages; null
 * when every field is valid. Which one applies: 'Form incomplete.' when a field fails because it
 * is empty (a required field left blank — the shopper has something left to fill in), otherwise —
 * every needed field filled but some value wrong — 'Sorry, not all fields are filled out
 * correctly.' (there is something to correct). Missing wins when both happen. A field that has
 * not reported a result yet (`undefined`) counts as missing.
 */
export function formMessage(results: Iterable<Pick<FieldResult, 'valid' | 'missing'> | undefined>): string | null {
  let invalid = false;
  for (const result of results) {
    if (!result || (!result.valid && result.missing)) return FORM_INCOMPLETE;
    if (!result.valid) invalid = true;
  }
  return invalid ? FORM_INVALID : null;
}

/** Validates every field of `schema` against `values`; the form message is `formMessage`'s. */
export function validateForm(
  values: Readonly<Record<string, unknown>>,
  schema: FormSchema,
  options: Pick<ValidateOptions, 'now' | 'rules'> = {},
): FormResult {
  const fields: Record<string, string> = {};
  const results: FieldResult[] = [];
  for (const [name, field] of Object.entries(schema)) {
    const spec =
      typeof field === 'string' || Array.isArray(field)
        ? { rules: field as RuleSet }
        : (field as { rules: RuleSet; label?: string; messages?: ValidateOptions['messages'] });
    const result = validate(values[name], spec.rules, {
      ...options,
      name,
      label: spec.label,
      messages: spec.messages,
      form: values,
    });
    const first = result.errors[0];
    if (first) fields[name] = first.message;
    results.push(result);
  }
  const message = formMessage(results);
  return { valid: message === null, fields, formMessage: message };
}
