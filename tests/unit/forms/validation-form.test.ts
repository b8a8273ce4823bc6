import { describe, expect, test } from 'vitest';
import {
  FORM_INCOMPLETE,
  FORM_INVALID,
  formMessage,
  validate,
  validateForm,
} from '../../../src/lib/validation/index.ts';

// The checkout's address fields, written as the checkout helper would.
const ADDRESS = {
  first_name: 'required',
  last_name: 'required',
  email: { rules: 'required|email', label: 'Email' },
  zip: {
    rules: 'required|matches:/^\\d{5}(-\\d{4})?$/',
    label: 'ZIP',
    messages: { matches: 'Please enter a valid ZIP code.' },
  },
} as const;
const complete = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', zip: '94105' };

describe('validateForm', () => {
  test('a complete, correct form is valid with no messages', () => {
    expect(validateForm(complete, ADDRESS)).toEqual({ valid: true, fields: {}, formMessage: null });
  });

  test('an empty required field makes the form incomplete', () => {
    const result = validateForm({ ...complete, first_name: '' }, ADDRESS);
    expect(result.fields).toEqual({ first_name: 'First name is required.' });
    expect(result.formMessage).toBe('Form incomplete.');
  });

  test('filled but wrong fields give the not-filled-out-correctly message', () => {
    const result = validateForm({ ...complete, email: 'ada@', zip: '9410' }, ADDRESS);
    expect(result.fields).toEqual({
      email: 'Please enter a valid email address.',
      zip: 'Please enter a valid ZIP code.',
    });
    expect(result.formMessage).toBe('Sorry, not all fields are filled out correctly.');
  });

  test('missing fields win over wrong ones for the form message', () => {
    expect(validateForm({ ...complete, email: 'ada@', last_name: ' ' }, ADDRESS).formMessage).toBe(FORM_INCOMPLETE);
  });
});

describe('formMessage (a form whose fields validate themselves)', () => {
  test('no message while every field is valid', () => {
    expect(formMessage([validate('Ada', 'required'), validate('ada@example.com', 'required|email')])).toBeNull();
    expect(formMessage([])).toBeNull();
  });

  test('a required field left empty: Form incomplete.', () => {
    expect(formMessage([validate('', 'required'), validate('ada@', 'email')])).toBe(FORM_INCOMPLETE);
  });

  test('everything filled but something wrong: Sorry, not all fields are filled out correctly.', () => {
    expect(formMessage([validate('Ada', 'required'), validate('ada@', 'required|email')])).toBe(FORM_INVALID);
  });

  test('a field that has not reported yet counts as missing', () => {
    expect(formMessage([validate('Ada', 'required'), undefined])).toBe(FORM_INCOMPLETE);
  });
});
