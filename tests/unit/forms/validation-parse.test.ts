import { describe, expect, test } from 'vitest';
import { parseRules, validate } from '../../../src/lib/validation/index.ts';

describe('rule notation', () => {
  test('a pipe string lists rules and a colon gives comma-separated arguments', () => {
    expect(parseRules('required|between:1,10|date_format:MM/DD/YYYY')).toEqual([
      { name: 'required', args: [] },
      { name: 'between', args: ['1', '10'] },
      { name: 'date_format', args: ['MM/DD/YYYY'] },
    ]);
  });

  test('a regex argument keeps its pipes and commas', () => {
    const [required, matches] = parseRules('required|matches:/^(a|b){1,2}$/i');
    expect(required?.name).toBe('required');
    expect(matches?.args[0]).toEqual(/^(a|b){1,2}$/i);
  });

  test('a list can mix strings, tuples and objects', () => {
    expect(parseRules(['required', ['between', 1, 10], { name: 'matches', args: [/x/] }])).toEqual([
      { name: 'required', args: [] },
      { name: 'between', args: [1, 10] },
      { name: 'matches', args: [/x/] },
    ]);
  });

  test('list and string forms validate the same way', () => {
    expect(validate('11', ['required', ['between', 1, 10]]).errors[0]?.message).toBe(
      validate('11', 'required|between:1,10').errors[0]?.message,
    );
  });

  test('matches accepts any of several patterns or literal values', () => {
    expect(validate('b', 'matches:/^a$/,b').valid).toBe(true);
    expect(validate('c', 'matches:/^a$/,b').valid).toBe(false);
  });
});
