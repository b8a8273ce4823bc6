import {
  ParseError,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
  type CountryCode,
  type NumberFormat,
  type PhoneNumber,
} from 'libphonenumber-js';
import { isCountryAllowed } from './phone-countries.ts';
import { DEFAULT_PHONE_COUNTRY } from './phone-defaults.ts';
import { PHONE_LIMITS } from './phone-limits.ts';

export { PHONE_LIMITS };

export const DISPLAY_MODES = ['auto', 'national', 'international', 'e.164', 'rfc3966', 'idd'] as const;
export type DisplayMode = (typeof DISPLAY_MODES)[number];

/** The library's error kinds (spec §8), as our own values. */
export type PhoneErrorKind = 'not_a_number' | 'invalid_country' | 'too_short' | 'too_long';

export type PhoneRules = {
  /** Country for numbers not starting with `+` (iso2, any case). Default US. */
  country?: string;
  onlyCountries?: readonly string[];
  ignoredCountries?: readonly string[];
  /** Accept only digits, spaces, parentheses, plus and hyphen. */
  restrictCharacters?: boolean;
  /** Replaces the built-in validity check: the number is valid when the raw input matches it. */
  customPattern?: RegExp | string;
  /** How `formatted` is written (spec §5); unknown modes log an error and use international. */
  displayMode?: string;
  /** Longest extension accepted, in digits (spec §9: 20 by default); a longer one is `too_long`. */
  maxExtensionLength?: number;
};

export type ParsedPhone = {
  /** ISO 3166-1 alpha-2, upper case, when known. */
  country: string | undefined;
  /** Calling code without +, e.g. '44'. */
  countryCode: string | undefined;
  formatted: string;
  valid: boolean;
  possible: boolean;
  nationalNumber: string;
  error: PhoneErrorKind | undefined;
};

const ALLOWED_CHARACTERS = /^[\d\s()+-]*$/;
/** An extension at the end of the input: `;ext=`, `ext`, `ext.`, `extn`, `extension`, `x` or `#`, then digits. */
const EXTENSION = /(?:;ext=|[\s,]*(?:ext(?:ension|n)?|x|#)[.:]?\s*)(\d+)#?\s*$/i;

const ERROR_KINDS: Record<string, PhoneErrorKind> = {
  NOT_A_NUMBER: 'not_a_number',
  INVALID_COUNTRY: 'invalid_country',
  TOO_SHORT: 'too_short',
  TOO_LONG: 'too_long',
};

/** Maps a libphonenumber-js failure to our error kind; anything unexpected is thrown on. */
function errorKind(error: unknown): PhoneErrorKind {
  if (error instanceof ParseError) return ERROR_KINDS[error.message] ?? 'not_a_number';
  throw new Error('Phone number parsing failed unexpectedly', { cause: error });
}

const LIBRARY_FORMATS: Record<Exclude<DisplayMode, 'auto' | 'idd'>, NumberFormat> = {
  national: 'NATIONAL',
  international: 'INTERNATIONAL',
  'e.164': 'E.164',
  rfc3966: 'RFC3966',
};

/** The concrete mode for `raw`: auto is international after a leading +, national otherwise; unknown modes → international. */
export function resolveDisplayMode(mode: string | undefined, raw: string): Exclude<DisplayMode, 'auto'> {
  const chosen = mode ?? 'auto';
  if (!(DISPLAY_MODES as readonly string[]).includes(chosen)) {
    console.error(
      `Unknown phone display mode "${chosen}"; using international. Use one of: ${DISPLAY_MODES.join(', ')}.`,
    );
    return 'international';
  }
  if (chosen === 'auto') return raw.trim().startsWith('+') ? 'international' : 'national';
  return chosen as Exclude<DisplayMode, 'auto'>;
}

/** Writes a parsed number in `mode`; IDD is dialled from `fromCountry` and falls back to international when it has no IDD prefix. */
export function formatPhone(phone: PhoneNumber, mode: Exclude<DisplayMode, 'auto'>, fromCountry: string): string {
  if (mode === 'idd') {
    return (
      phone.format('IDD', { fromCountry: fromCountry.toUpperCase() as CountryCode }) || phone.format('INTERNATIONAL')
    );
  }
  return phone.format(LIBRARY_FORMATS[mode]);
}

function patternOf(pattern: RegExp | string): RegExp {
  return typeof pattern === 'string' ? new RegExp(pattern) : new RegExp(pattern.source, pattern.flags.replace('g', ''));
}

/**
 * Parses what the shopper typed (spec §5): `+…` as international, anything else with the
 * selected country; reports validity, plausibility and the library's error kind.
 */
export function parsePhone(raw: string, rules: PhoneRules = {}): ParsedPhone {
  const selected = (rules.country ?? DEFAULT_PHONE_COUNTRY).toUpperCase();
  const failed = (error: PhoneErrorKind, country?: string): ParsedPhone => ({
    country,
    countryCode: undefined,
    formatted: raw,
    valid: false,
    possible: false,
    nationalNumber: '',
    error,
  });
  // Checked before the library so an oversized paste never reaches its regexes.
  if (raw.length > PHONE_LIMITS.maxRawInputLength) return failed('too_long');
  if (rules.restrictCharacters && !ALLOWED_CHARACTERS.test(raw)) return failed('not_a_number');
  const mode = resolveDisplayMode(rules.displayMode, raw);
  const international = raw.trim().startsWith('+');
  const extension = EXTENSION.exec(raw);
  if (extension && extension[1]!.length > (rules.maxExtensionLength ?? PHONE_LIMITS.maxExtensionLength)) {
    return failed('too_long', international ? undefined : selected);
  }
  const number = extension ? raw.slice(0, extension.index) : raw;

  let phone: PhoneNumber;
  try {
    phone = international
      ? parsePhoneNumberWithError(number)
      : parsePhoneNumberWithError(number, { defaultCountry: selected as CountryCode });
  } catch (error) {
    return failed(errorKind(error), international ? undefined : selected);
  }
  if (extension) phone.setExt(extension[1]!);

  const nationalNumber: string = phone.nationalNumber;
  const country = phone.country ?? (international ? undefined : selected);
  let valid = phone.isValid();
  let possible = phone.isPossible();
  let error: PhoneErrorKind | undefined;
  if (nationalNumber.length < PHONE_LIMITS.minNationalLength) error = 'too_short';
  else if (nationalNumber.length > PHONE_LIMITS.maxNationalLength) error = 'too_long';
  if (!error && !possible) {
    // The length check names why an impossible number fails (too short / too long for its country).
    const lengthError = international
      ? validatePhoneNumberLength(number)
      : validatePhoneNumberLength(number, { defaultCountry: selected as CountryCode });
    error = lengthError ? ERROR_KINDS[lengthError] : undefined;
  }
  if (error) {
    valid = false;
    possible = false;
  }
  if (rules.customPattern !== undefined) {
    valid = patternOf(rules.customPattern).test(raw);
    possible = valid;
  }
  // A number from a country the field does not accept is never valid, whatever the pattern says.
  if (country && !isCountryAllowed(country, rules)) valid = false;

  return {
    country,
    countryCode: phone.countryCallingCode,
    // IDD is written as dialled from the field's country (the shopper's side of the call).
    formatted: formatPhone(phone, mode, selected),
    valid,
    possible,
    nationalNumber,
    error,
  };
}
