/**
 * Framework-free validation rules (spec §5), shared by islands and server code.
 *
 *   validate('', 'required|email', { name: 'email' }).errors[0]?.message  // 'Email is required.'
 *   validateForm(values, { email: 'required|email', age: ['number', 'between:18,99'] })
 *
 * Rules are data: a pipe string (`'required|matches:/^\\d{5}$/'`) or a list (`['required', ['min', 3]]`).
 */
export { parseRules } from './parse-rules.ts';
export type { RuleSet } from './parse-rules.ts';
export { RULES } from './rules.ts';
export { FORM_INCOMPLETE, FORM_INVALID, formMessage, validate, validateForm } from './validate.ts';
export type { FieldResult, ValidateOptions } from './validate.ts';
