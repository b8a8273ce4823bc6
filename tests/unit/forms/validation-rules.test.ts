import { describe, expect, test } from 'vitest';
import { RULES, validate } from '../../../src/lib/validation/index.ts';

const NOW = new Date('2026-06-15T12:00:00Z');

type Case = {
  rule: string;
  valid: unknown[];
  invalid: unknown[];
  message: string;
  /** Field name; the label used in messages is its humanised form. */
  name?: string;
  form?: Record<string, unknown>;
};

// One row per rule of spec §5: values that pass, values that fail, and the message a failure gives.
const CASES: Case[] = [
  {
    rule: 'accepted',
    name: 'terms',
    valid: [true, 'yes', 'on', '1', 1, 'true'],
    invalid: [false, 'no', '', 0],
    message: 'Please accept the Terms.',
  },
  {
    rule: 'alpha',
    valid: ['abc', 'Zoë'],
    invalid: ['abc1', 'a b', 'a-b'],
    message: 'Field can only contain alphabetical characters.',
  },
  {
    rule: 'alpha_spaces',
    valid: ['Mary Ann', 'Zoë'],
    invalid: ['Mary-Ann', 'R2 D2'],
    message: 'Field can only contain letters and spaces.',
  },
  {
    rule: 'alphanumeric',
    valid: ['abc123', 'Zoë7'],
    invalid: ['abc 123', 'a_b'],
    message: 'Field can only contain letters and numbers.',
  },
  { rule: 'between:1,10', valid: [1, '5', 10], invalid: [0, '11', -3], message: 'Field must be between 1 and 10.' },
  {
    rule: 'contains_alpha',
    valid: ['123a'],
    invalid: ['123!'],
    message: 'Field must contain alphabetical characters.',
  },
  {
    rule: 'contains_alpha_spaces',
    valid: ['12 3', '123a'],
    invalid: ['123!', '1-2'],
    message: 'Field must contain letters or spaces.',
  },
  {
    rule: 'contains_alphanumeric',
    valid: ['!a', '?7'],
    invalid: ['!?', '- -'],
    message: 'Field must contain letters or numbers.',
  },
  { rule: 'contains_numeric', valid: ['abc1'], invalid: ['abc!'], message: 'Field must contain numbers.' },
  { rule: 'contains_number', valid: ['abc1', 'Zoë٣'], invalid: ['abc!'], message: 'Field must contain numbers.' },
  { rule: 'contains_lowercase', valid: ['ABc'], invalid: ['ABC1'], message: 'Field must contain a lowercase letter.' },
  { rule: 'contains_uppercase', valid: ['abC'], invalid: ['abc1'], message: 'Field must contain an uppercase letter.' },
  { rule: 'contains_symbol', valid: ['abc!'], invalid: ['abc1 '], message: 'Field must contain a symbol.' },
  {
    rule: 'date_after:2026-01-01',
    valid: ['2026-02-01'],
    invalid: ['2025-12-31', 'not a date'],
    message: `Field must be after ${new Date('2026-01-01').toLocaleDateString('en-US')}.`,
  },
  { rule: 'date_after', valid: ['2027-01-01'], invalid: ['2026-01-01'], message: 'Field must be in the future.' },
  {
    rule: 'date_before:2026-01-01',
    valid: ['2025-12-31'],
    invalid: ['2026-02-01'],
    message: `Field must be before ${new Date('2026-01-01').toLocaleDateString('en-US')}.`,
  },
  { rule: 'date_before', valid: ['2026-01-01'], invalid: ['2027-01-01'], message: 'Field must be in the past.' },
  {
    rule: 'date_between:2026-01-01,2026-12-31',
    valid: ['2026-06-01'],
    invalid: ['2027-01-02', 'soon'],
    message: `Field must be between ${new Date('2026-01-01').toLocaleDateString('en-US')} and ${new Date('2026-12-31').toLocaleDateString('en-US')}.`,
  },
  {
    rule: 'date_format:MM/DD/YYYY',
    valid: ['02/29/2024', '12/31/2026'],
    invalid: ['2024-02-29', '02/30/2024', '13/01/2024', '2/3/2024'],
    message: 'Field is not a valid date, please use the format MM/DD/YYYY.',
  },
  {
    rule: 'email',
    valid: ['shopper@example.com', 'a.b+c@sub.example.co.uk'],
    invalid: ['shopper@', 'shopper@example', 'two words@example.com'],
    message: 'Please enter a valid email address.',
  },
  {
    rule: 'ends_with:.com,.org',
    valid: ['example.com', 'example.org'],
    invalid: ['example.net'],
    message: 'Field doesn’t end with .com or .org.',
  },
  {
    rule: 'is:small,large',
    valid: ['small', 'large'],
    invalid: ['medium'],
    message: '“medium” is not an allowed value.',
  },
  {
    rule: 'length:2,5',
    valid: ['ab', 'abcde'],
    invalid: ['a', 'abcdef'],
    message: 'Field must be between 2 and 5 characters.',
  },
  { rule: 'lowercase', valid: ['abc'], invalid: ['aBc', 'abc1'], message: 'Field can only contain lowercase letters.' },
  {
    rule: 'matches:/^\\d{5}$/',
    valid: ['12345'],
    invalid: ['1234', '12345-6789'],
    message: '“1234” is not an allowed value.',
  },
  { rule: 'max:10', valid: [10, '3'], invalid: [11, '10.5'], message: 'Field must be no more than 10.' },
  { rule: 'min:3', valid: [3, '4'], invalid: [2, '-1'], message: 'Field must be at least 3.' },
  { rule: 'not:admin,root', valid: ['shopper'], invalid: ['admin'], message: '“admin” is not an allowed value.' },
  {
    rule: 'number',
    valid: ['12', '-3.5', 7, '1e3'],
    invalid: ['12a', 'twelve', '1.2.3'],
    message: 'Field must be a number.',
  },
  {
    rule: 'required',
    valid: ['x', 0, ['a'], true],
    invalid: ['', '   ', null, undefined, [], false],
    message: 'Field is required.',
  },
  { rule: 'starts_with:+,00', valid: ['+44', '0044'], invalid: ['44'], message: 'Field doesn’t start with + or 00.' },
  { rule: 'symbol', valid: ['!?-'], invalid: ['!a'], message: 'Field can only contain symbols.' },
  { rule: 'uppercase', valid: ['ABC'], invalid: ['AbC'], message: 'Field can only contain uppercase letters.' },
  {
    rule: 'url',
    valid: ['https://shop.acme.test/cart', 'http://example.com'],
    invalid: ['example.com', 'ftp://example.com', 'https://localhost'],
    message: 'Please enter a valid URL.',
  },
];

describe.each(CASES)('rule $rule', ({ rule, valid, invalid, message, name = 'field', form = {} }) => {
  test.each(valid.map((value) => [value]))('accepts %j', (value) => {
    expect(validate(value, rule, { name, form, now: NOW }).errors).toEqual([]);
  });
  test.each(invalid.map((value) => [value]))('rejects %j', (value) => {
    expect(validate(value, rule, { name, form, now: NOW }).valid).toBe(false);
  });
  test('gives its default message', () => {
    expect(validate(invalid[0], rule, { name, form, now: NOW }).errors[0]?.message).toBe(message);
  });
});

describe('rules that look at other fields', () => {
  test('confirm compares a field with its _confirm twin', () => {
    const form = { password: 'secret1', password_confirm: 'secret1' };
    expect(validate('secret1', 'confirm', { name: 'password', form }).valid).toBe(true);
    const wrong = validate('secret2', 'confirm', { name: 'password', form: { ...form, password_confirm: 'other' } });
    expect(wrong.errors[0]?.message).toBe('Password does not match.');
  });

  test('confirm on the _confirm field compares with the original field', () => {
    expect(validate('a', 'confirm', { name: 'email_confirm', form: { email: 'a' } }).valid).toBe(true);
    expect(validate('b', 'confirm', { name: 'email_confirm', form: { email: 'a' } }).valid).toBe(false);
  });

  test('require_one passes when this or one of the named fields is filled', () => {
    expect(validate('', 'require_one:phone', { name: 'email', form: { phone: '555' } }).valid).toBe(true);
    const none = validate('', 'require_one:phone', { name: 'email', form: { phone: '' } });
    expect(none.errors[0]?.message).toBe('Email or phone is required.');
  });
});

describe('messages', () => {
  test('required names the field by its label or humanised name', () => {
    expect(validate('', 'required', { name: 'first_name' }).errors[0]?.message).toBe('First name is required.');
    expect(validate('', 'required', { name: 'zip', label: 'ZIP code' }).errors[0]?.message).toBe(
      'ZIP code is required.',
    );
    expect(validate('', 'required', { label: 'State *' }).errors[0]?.message).toBe('State is required.');
    expect(validate('', 'required').errors[0]?.message).toBe('This field is required.');
  });

  test('an unknown rule fails with the fallback message', () => {
    expect(validate('x', 'no_such_rule').errors).toEqual([
      { rule: 'no_such_rule', message: 'This field is not valid.' },
    ]);
  });

  test('a rule without a message of its own falls back', () => {
    const rules = { even: { check: ({ value }: { value: unknown }) => Number(value) % 2 === 0, message: () => '' } };
    expect(validate('3', 'even', { rules }).errors[0]?.message).toBe('This field is not valid.');
  });

  test('messages can be overridden per rule', () => {
    const result = validate('', 'required', { name: 'zip', messages: { required: 'We need your ZIP.' } });
    expect(result.errors[0]?.message).toBe('We need your ZIP.');
  });

  test('every rule of spec §5 exists', () => {
    const names = [
      'accepted',
      'alpha',
      'alpha_spaces',
      'alphanumeric',
      'between',
      'confirm',
      'contains_alpha',
      'contains_numeric',
      'contains_lowercase',
      'contains_uppercase',
      'contains_symbol',
      'date_after',
      'date_before',
      'date_between',
      'date_format',
      'email',
      'ends_with',
      'is',
      'length',
      'lowercase',
      'matches',
      'max',
      'min',
      'not',
      'number',
      'require_one',
      'required',
      'starts_with',
      'symbol',
      'uppercase',
      'url',
    ];
    expect(names.filter((name) => !(name in RULES))).toEqual([]);
  });

  test('every character-class rule has its contains_ variant with a message of its own', () => {
    // alpha, alpha_spaces, alphanumeric, lowercase, number, symbol, uppercase → contains_alpha, …
    const classes = ['alpha', 'alpha_spaces', 'alphanumeric', 'lowercase', 'number', 'symbol', 'uppercase'];
    const missing = classes.filter((name) => !RULES[`contains_${name}`]);
    expect(missing).toEqual([]);
    const ctx = { value: '', args: [], name: 'code', displayName: 'Code', form: {}, now: NOW };
    for (const name of classes) {
      expect(RULES[`contains_${name}`]?.message(ctx), `contains_${name}`).toMatch(/^Code must contain .+\.$/);
    }
  });
});

describe('empty values', () => {
  test('rules other than required pass on an empty value so optional fields stay optional', () => {
    expect(validate('', 'email|min:3|url').valid).toBe(true);
  });

  test('all failures are reported in the order written', () => {
    expect(validate('ab', 'min:3|alpha|length:3').errors.map((error) => error.rule)).toEqual(['min', 'length']);
  });
});
