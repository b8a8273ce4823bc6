/** Date parsing for the date_* rules: a `MM/DD/YYYY`-style format, or anything `Date` can read. */

const TOKENS: Record<string, string> = {
  YYYY: '(\\d{4})',
  YY: '(\\d{2})',
  MM: '(0[1-9]|1[0-2])',
  M: '([1-9]|1[0-2])',
  DD: '(0[1-9]|[12]\\d|3[01])',
  D: '([1-9]|[12]\\d|3[01])',
};

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Reads `text` in `format` (tokens YYYY, YY, MM, M, DD, D); null when it does not fit or is no real day (02/30). */
export function parseDateWithFormat(text: string, format: string): Date | null {
  const order: string[] = [];
  const pattern = format
    .split(/(YYYY|YY|MM|M|DD|D)/)
    .map((part) => {
      const token = TOKENS[part];
      if (token === undefined) return escapeRegex(part);
      order.push(part);
      return token;
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(text.trim());
  if (!match) return null;
  let year = 1970;
  let month = 1;
  let day = 1;
  order.forEach((token, index) => {
    const value = Number(match[index + 1]);
    if (token === 'YYYY') year = value;
    else if (token === 'YY') year = 2000 + value;
    else if (token === 'MM' || token === 'M') month = value;
    else day = value;
  });
  const date = new Date(year, month - 1, day);
  // new Date(2024, 1, 30) rolls over to March: such a day does not exist.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

/** A Date from a Date, a timestamp or a string `Date` can parse; null otherwise. */
export function toDate(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'number') return new Date(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const time = Date.parse(value);
    return Number.isNaN(time) ? null : new Date(time);
  }
  return null;
}
