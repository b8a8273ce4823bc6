/**
 * What a variant and its options may hold: one set of rules for the catalog import and the console's
 * product editor (docs/decisions/207-product-editor.md), and the two rules the console adds over a
 * product's variants — every option has a value, and no two variants on sale share the same values.
 */
import { z } from 'zod';

// Listings keep a product's option values as name and value joined by a control character, and the
// shop's filter names one as `Size:M` (docs/decisions/192-listing-facets.md): neither may hold a control
// character, and a name no colon.
const NO_CONTROL_CHARACTERS = /^\P{Cc}*$/u;

export const optionName = z
  .string({ error: 'Option name is required.' })
  .min(1, 'Option name is required.')
  .max(40, 'Option name must be at most 40 characters.')
  .regex(NO_CONTROL_CHARACTERS, 'Option name must not hold control characters.')
  .refine((name) => !name.includes(':'), 'Option name must not hold a colon.');

export const optionValue = z
  .string({ error: 'Option value is required.' })
  .min(1, 'Option value is required.')
  .max(100, 'Option value must be at most 100 characters.')
  .regex(NO_CONTROL_CHARACTERS, 'Option value must not hold control characters.');

export const variantSku = z
  .string({ error: 'SKU is required.' })
  .min(1, 'SKU is required.')
  .max(64, 'SKU must be at most 64 characters.');

export const variantName = z
  .string({ error: 'Variant name is required.' })
  .min(1, 'Variant name is required.')
  .max(200, 'Variant name must be at most 200 characters.');

export const MAX_VARIANT_STOCK = 1_000_000;

export const VARIANT_MESSAGES = {
  missingValue: (name: string) => `Give the variant a ${name}.`,
  unknownOption: (name: string) => `${name} is not one of the product’s options.`,
  sameValues: (sku: string) => `${sku} has the same option values: each variant needs its own combination.`,
  skuTwice: 'Another variant here has this SKU.',
  nameTwice: 'Another option has this name.',
} as const;

type Options = Readonly<Record<string, string>>;

/** What is wrong with a variant's options against the product's option names, by option name. */
export function optionProblems(optionNames: readonly string[], options: Options): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const name of optionNames) if (!options[name]) problems[name] = VARIANT_MESSAGES.missingValue(name);
  for (const name of Object.keys(options))
    if (!optionNames.includes(name)) problems[name] = VARIANT_MESSAGES.unknownOption(name);
  return problems;
}

/** Two variants offer the same thing when every option has the same value in both. */
export function sameCombination(optionNames: readonly string[], a: Options, b: Options): boolean {
  return optionNames.every((name) => a[name] === b[name]);
}
