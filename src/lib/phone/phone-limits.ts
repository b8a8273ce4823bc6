/**
 * Limits of spec §5/§9 (libphonenumber-js has the same numbers; kept here so our checks do not
 * depend on it). The extension limit is ours for every label: the library allows 20 digits after
 * `ext` but only 9 after `x`. A calling code is read from at most 3 digits (`callingCodeOf`).
 */
export const PHONE_LIMITS = {
  minNationalLength: 2,
  maxNationalLength: 17,
  maxRawInputLength: 250,
  maxCallingCodeLength: 3,
  maxExtensionLength: 20,
} as const;
