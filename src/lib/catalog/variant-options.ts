/**
 * Variant choice by options (product page): which values each option offers, which variant a
 * choice names, and whether a value can still lead to an available variant.
 */
import type { VariantView } from './catalog-card.ts';

export type Selection = Record<string, string>;

/** Each option's distinct values in the order variants list them. */
export function optionValues(
  variants: readonly VariantView[],
  optionNames: readonly string[],
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of optionNames) {
    const values: string[] = [];
    for (const variant of variants) {
      const value = variant.options[name];
      if (value !== undefined && !values.includes(value)) values.push(value);
    }
    out[name] = values;
  }
  return out;
}

/** The variant matching every chosen option, or null. */
export function findVariant(
  variants: readonly VariantView[],
  optionNames: readonly string[],
  selection: Selection,
): VariantView | null {
  if (optionNames.length === 0) return variants[0] ?? null;
  return variants.find((variant) => optionNames.every((name) => variant.options[name] === selection[name])) ?? null;
}

/**
 * The choice a page opens with: the variant its URL names (`?variant=ID`, kept so a reload or a
 * shared link shows the same one), else the first available variant, else the first.
 */
export function initialSelection(variants: readonly VariantView[], requestedId?: string | null): Selection {
  const start =
    variants.find((variant) => variant.id === requestedId) ??
    variants.find((variant) => variant.available) ??
    variants[0];
  return start ? { ...start.options } : {};
}

/** True when choosing `value` for `name`, keeping the other choices, names an available variant. */
export function isValueAvailable(
  variants: readonly VariantView[],
  optionNames: readonly string[],
  selection: Selection,
  name: string,
  value: string,
): boolean {
  const variant = findVariant(variants, optionNames, { ...selection, [name]: value });
  return variant?.available ?? false;
}

/**
 * Choosing `value` for `name`: when the other choices no longer name a variant, the closest
 * variant with that value takes over, so a selection always names something.
 */
export function choose(
  variants: readonly VariantView[],
  optionNames: readonly string[],
  selection: Selection,
  name: string,
  value: string,
): Selection {
  const next = { ...selection, [name]: value };
  if (findVariant(variants, optionNames, next)) return next;
  const candidates = variants.filter((variant) => variant.options[name] === value);
  const best = candidates.find((variant) => variant.available) ?? candidates[0];
  return best ? { ...best.options } : next;
}
