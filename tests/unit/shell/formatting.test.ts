import { describe, expect, test } from 'vitest';
import { centsToDecimal, decimalToCents, formatCurrency, formatDate } from '../../../src/lib/money.ts';

describe('money (spec §9: USD, en-US)', () => {
  test('formatCurrency shows two decimals with grouping', () => {
    expect(formatCurrency('1234.5')).toBe('$1,234.50');
    expect(formatCurrency(1999)).toBe('$19.99');
    expect(formatCurrency('0.00')).toBe('$0.00');
  });

  test('negative amounts keep their sign', () => {
    expect(formatCurrency(-500)).toBe('-$5.00');
  });

  test('wire strings and cents convert both ways', () => {
    expect(centsToDecimal(1250)).toBe('12.50');
    expect(centsToDecimal(-5)).toBe('-0.05');
    expect(decimalToCents('12.5')).toBe(1250);
    expect(() => decimalToCents('12.505')).toThrow(RangeError);
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
  });
});

describe('dates (spec §9: month/day/year)', () => {
  test('an ISO timestamp shows as mm/dd/yyyy', () => {
    expect(formatDate('2026-11-21T05:00:00Z')).toBe('11/21/2026');
  });
  test('a Date works too and the day does not shift with the server time zone', () => {
    expect(formatDate(new Date(Date.UTC(2026, 0, 2, 23, 30)))).toBe('01/02/2026');
  });
});
