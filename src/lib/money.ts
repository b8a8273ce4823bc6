/**
 * Money: integer cents inside, two-decimal strings on the wire, en-US USD on screen (spec §9).
 */

/** The one currency of every store (spec §9), as ISO 4217 names it (structured data, formatting). */
export const CURRENCY = 'USD';

const usd2 = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: CURRENCY,
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** 1250 → "12.50" (the API's money field). */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "12.50" → 1250. Throws on anything that is not a decimal with at most two places. */
export function decimalToCents(value: string): number {
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) throw new RangeError(`not a money amount: ${JSON.stringify(value)}`);
  const [, minus, whole, fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return minus ? -cents : cents;
}

/** formatCurrency of spec §9: "$1,234.50". Accepts a wire string or cents. */
export function formatCurrency(amount: string | number): string {
  const cents = typeof amount === 'number' ? amount : decimalToCents(amount);
  return usd2.format(cents / 100);
}

// Made once: building a DateTimeFormat costs far more than formatting with one, and every order's
// receipt formats a date inside the order's transaction.
const monthDayYear = new Intl.DateTimeFormat('en-US', {
  month: '2-digit',
  day: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});

/** Dates month/day/year (spec §9): "11/21/2026". */
export function formatDate(date: Date | string): string {
  return monthDayYear.format(typeof date === 'string' ? new Date(date) : date);
}
