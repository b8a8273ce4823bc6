import { parseDateWithFormat, toDate } from './dates.ts';
import type { RuleArg } from './parse-rules.ts';

/** What a rule sees: the field's value, the rule's arguments, the field name and the whole form. */
export type RuleContext = {
  value: unknown;
  args: RuleArg[];
  /** The field's name in the form (`first_name`). */
  name: string;
  /** Name shown in messages: the label, or the humanised name (`First name`). */
  displayName: string;
  form: Readonly<Record<string, unknown>>;
  now: Date;
};

export type RuleDefinition = {
  check: (ctx: RuleContext) => boolean;
  message: (ctx: RuleContext) => string;
  /** Rules that judge emptiness itself; every other rule passes on an empty value (so `email` alone allows blank). */
  runsOnEmpty?: boolean;
};

/** Fallback message for a rule without one of its own (spec §5). */
export const FALLBACK_MESSAGE = 'This field is not valid.';

/** Empty as far as `required` goes: undefined, null, blank string, empty list, false. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

// Field values are strings, numbers or booleans; anything else is compared as its default text, as before.
// eslint-disable-next-line @typescript-eslint/no-base-to-string
const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));
const argText = (arg: RuleArg | undefined): string => (arg instanceof RegExp ? String(arg) : text(arg));
const isNumeric = (value: unknown): boolean =>
  typeof value === 'number'
    ? Number.isFinite(value)
    : typeof value === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(value);
/** "a, b or c" for messages listing allowed values. */
function list(args: RuleArg[], joiner: string): string {
  const items = args.map(argText);
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${joiner} ${items[items.length - 1]}`;
}
/** A size to compare with min/max/between: a number's value, a list's length, a text's length. */
function size(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (isNumeric(value)) return Number(value);
  return text(value).length;
}
function dateArg(arg: RuleArg | undefined, now: Date): Date | null {
  return arg === undefined ? now : toDate(arg);
}
function formatDateArg(arg: RuleArg | undefined): string {
  const date = toDate(arg);
  return date ? date.toLocaleDateString('en-US') : argText(arg);
}
/** Field to compare `confirm` with: the argument, else `x` for `x_confirm`, else `x_confirm`. */
function confirmTarget({ name, args }: RuleContext): string {
  if (args[0] !== undefined) return argText(args[0]);
  return name.endsWith('_confirm') ? name.slice(0, -'_confirm'.length) : `${name}_confirm`;
}

const LETTERS = /^\p{L}+$/u;
const LETTERS_SPACES = /^[\p{L} ]+$/u;
const LETTERS_DIGITS = /^[\p{L}\p{N}]+$/u;
const SYMBOLS = /^[^\p{L}\p{N}\s]+$/u;
const EMAIL = /^[^\s@"<>()[\],;:]+@[^\s@"<>()[\],;:]+\.[^\s@"<>()[\],;:.]{2,}$/;

const CONTAINS_NUMBER: RuleDefinition = {
  check: ({ value }) => /\p{N}/u.test(text(value)),
  message: ({ displayName }) => `${displayName} must contain numbers.`,
};

export const RULES: Record<string, RuleDefinition> = {
  accepted: {
    check: ({ value }) => ['yes', 'on', '1', 'true', 1, true].includes(value as string | number | boolean),
    message: ({ displayName }) => `Please accept the ${displayName}.`,
    runsOnEmpty: true,
  },
  alpha: {
    check: ({ value }) => LETTERS.test(text(value)),
    message: ({ displayName }) => `${displayName} can only contain alphabetical characters.`,
  },
  alpha_spaces: {
    check: ({ value }) => LETTERS_SPACES.test(text(value)),
    message: ({ displayName }) => `${displayName} can only contain letters and spaces.`,
  },
  alphanumeric: {
    check: ({ value }) => LETTERS_DIGITS.test(text(value)),
    message: ({ displayName }) => `${displayName} can only contain letters and numbers.`,
  },
  between: {
    check: ({ value, args }) => {
      const [low, high] = [Number(args[0]), Number(args[1])].sort((a, b) => a - b) as [number, number];
      const n = size(value);
      return n >= low && n <= high;
    },
    message: ({ displayName, args }) => `${displayName} must be between ${argText(args[0])} and ${argText(args[1])}.`,
  },
  confirm: {
    check: (ctx) => text(ctx.form[confirmTarget(ctx)]) === text(ctx.value),
    message: ({ displayName }) => `${displayName} does not match.`,
    runsOnEmpty: true,
  },
  // One contains_ rule per character-class rule (alpha, alpha_spaces, alphanumeric, lowercase,
  // number, symbol, uppercase): the value needs at least one such character. contains_numeric is
  // contains_number's other name (FormKit's), so forms written either way work.
  contains_alpha: {
    check: ({ value }) => /\p{L}/u.test(text(value)),
    message: ({ displayName }) => `${displayName} must contain alphabetical characters.`,
  },
  contains_alpha_spaces: {
    check: ({ value }) => /[\p{L} ]/u.test(text(value)),
    message: ({ displayName }) => `${displayName} must contain letters or spaces.`,
  },
  contains_alphanumeric: {
    check: ({ value }) => /[\p{L}\p{N}]/u.test(text(value)),
    message: ({ displayName }) => `${displayName} must contain letters or numbers.`,
  },
  contains_number: CONTAINS_NUMBER,
  contains_numeric: CONTAINS_NUMBER,
  contains_lowercase: {
    check: ({ value }) => /\p{Ll}/u.test(text(value)),
    message: ({ displayName }) => `${displayName} must contain a lowercase letter.`,
  },
  contains_uppercase: {
    check: ({ value }) => /\p{Lu}/u.test(text(value)),
    message: ({ displayName }) => `${displayName} must contain an uppercase letter.`,
  },
  contains_symbol: {
    check: ({ value }) => /[^\p{L}\p{N}\s]/u.test(text(value)),
    message: ({ displayName }) => `${displayName} must contain a symbol.`,
  },
  date_after: {
    check: ({ value, args, now }) => {
      const date = toDate(value);
      const limit = dateArg(args[0], now);
      return date !== null && limit !== null && date.getTime() > limit.getTime();
    },
    message: ({ displayName, args }) =>
      args[0] === undefined
        ? `${displayName} must be in the future.`
        : `${displayName} must be after ${formatDateArg(args[0])}.`,
  },
  date_before: {
    check: ({ value, args, now }) => {
      const date = toDate(value);
      const limit = dateArg(args[0], now);
      return date !== null && limit !== null && date.getTime() < limit.getTime();
    },
    message: ({ displayName, args }) =>
      args[0] === undefined
        ? `${displayName} must be in the past.`
        : `${displayName} must be before ${formatDateArg(args[0])}.`,
  },
  date_between: {
    check: ({ value, args }) => {
      const [date, start, end] = [toDate(value), toDate(args[0]), toDate(args[1])];
      if (!date || !start || !end) return false;
      return date.getTime() >= start.getTime() && date.getTime() <= end.getTime();
    },
    message: ({ displayName, args }) =>
      `${displayName} must be between ${formatDateArg(args[0])} and ${formatDateArg(args[1])}.`,
  },
  date_format: {
    check: ({ value, args }) =>
      args[0] === undefined ? toDate(value) !== null : parseDateWithFormat(text(value), argText(args[0])) !== null,
    message: ({ displayName, args }) =>
      `${displayName} is not a valid date, please use the format ${argText(args[0])}.`,
  },
  email: {
    check: ({ value }) => EMAIL.test(text(value).trim()),
    message: () => 'Please enter a valid email address.',
  },
  ends_with: {
    check: ({ value, args }) => args.some((arg) => text(value).endsWith(argText(arg))),
    message: ({ displayName, args }) => `${displayName} doesn’t end with ${list(args, 'or')}.`,
  },
  is: {
    check: ({ value, args }) => args.some((arg) => argText(arg) === text(value)),
    message: ({ value }) => `“${text(value)}” is not an allowed value.`,
  },
  length: {
    check: ({ value, args }) => {
      const n = Array.isArray(value) ? value.length : text(value).length;
      const min = Number(args[0] ?? 0);
      const max = args[1] === undefined ? Infinity : Number(args[1]);
      return n >= Math.min(min, max) && n <= Math.max(min, max);
    },
    message: ({ displayName, args }) => {
      const min = Number(args[0] ?? 0);
      if (args[1] === undefined) return `${displayName} must be at least ${min} characters.`;
      const max = Number(args[1]);
      if (min === max) return `${displayName} should be ${max} characters long.`;
      if (min <= 0) return `${displayName} must be less than or equal to ${max} characters.`;
      return `${displayName} must be between ${Math.min(min, max)} and ${Math.max(min, max)} characters.`;
    },
  },
  lowercase: {
    check: ({ value }) => /^\p{Ll}+$/u.test(text(value)),
    message: ({ displayName }) => `${displayName} can only contain lowercase letters.`,
  },
  matches: {
    check: ({ value, args }) =>
      args.some((arg) =>
        arg instanceof RegExp
          ? new RegExp(arg.source, arg.flags.replace('g', '')).test(text(value))
          : argText(arg) === text(value),
      ),
    message: ({ value }) => `“${text(value)}” is not an allowed value.`,
  },
  max: {
    check: ({ value, args }) => size(value) <= Number(args[0]),
    message: ({ displayName, args, value }) =>
      Array.isArray(value)
        ? `Cannot have more than ${argText(args[0])} ${displayName}.`
        : `${displayName} must be no more than ${argText(args[0])}.`,
  },
  min: {
    check: ({ value, args }) => size(value) >= Number(args[0]),
    message: ({ displayName, args, value }) =>
      Array.isArray(value)
        ? `Cannot have fewer than ${argText(args[0])} ${displayName}.`
        : `${displayName} must be at least ${argText(args[0])}.`,
  },
  not: {
    check: ({ value, args }) => !args.some((arg) => argText(arg) === text(value)),
    message: ({ value }) => `“${text(value)}” is not an allowed value.`,
  },
  number: {
    check: ({ value }) => isNumeric(value),
    message: ({ displayName }) => `${displayName} must be a number.`,
  },
  require_one: {
    check: ({ value, args, form }) => !isEmpty(value) || args.some((arg) => !isEmpty(form[argText(arg)])),
    message: ({ displayName, args }) => `${[displayName, ...args.map(argText)].join(' or ')} is required.`,
    runsOnEmpty: true,
  },
  required: {
    check: ({ value }) => !isEmpty(value),
    message: ({ displayName }) => `${displayName} is required.`,
    runsOnEmpty: true,
  },
  starts_with: {
    check: ({ value, args }) => args.some((arg) => text(value).startsWith(argText(arg))),
    message: ({ displayName, args }) => `${displayName} doesn’t start with ${list(args, 'or')}.`,
  },
  symbol: {
    check: ({ value }) => SYMBOLS.test(text(value)),
    message: ({ displayName }) => `${displayName} can only contain symbols.`,
  },
  uppercase: {
    check: ({ value }) => /^\p{Lu}+$/u.test(text(value)),
    message: ({ displayName }) => `${displayName} can only contain uppercase letters.`,
  },
  url: {
    check: ({ value }) => {
      try {
        const url = new URL(text(value).trim());
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
      } catch {
        return false;
      }
    },
    message: () => 'Please enter a valid URL.',
  },
};
