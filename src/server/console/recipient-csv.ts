/**
 * Reading a restricted store's guest list from a CSV file (docs/decisions/204-recipients-and-domain-tokens.md):
 * one address a row, a header row optional, as spreadsheets save it (quoted fields, CRLF, a UTF-8 byte
 * order mark, `;` or tab where the locale's lists use them). Pure: the route decides what to store.
 */
import { addRecipientPayload } from '../../lib/contract/payloads.ts';

/** The most rows one file may hold; a longer list is imported in parts. */
export const MAX_IMPORT_ROWS = 10_000;
/** The largest file taken: about 30,000 addresses, so the row limit is met first. */
export const MAX_IMPORT_BYTES = 1024 * 1024;

export const CSV_MESSAGES = {
  notText: 'This file is not UTF-8 text. Save it as “CSV UTF-8” and import it again.',
  noAddresses: 'This file holds no email addresses.',
  noAddressInRow: 'This row has no email address.',
  tooManyRows: `A file may hold at most ${MAX_IMPORT_ROWS} rows. Split it and import each part.`,
  tooLarge: `This file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it and import each part.`,
} as const;

export type CsvRow = { row: number; email: string };
export type CsvReading =
  | { refused: string }
  | {
      /** Distinct valid addresses (lower-cased), each with the first row that held it. */
      valid: CsvRow[];
      duplicates: (CsvRow & { first_row: number })[];
      invalid: { row: number; value: string; message: string }[];
    };

/** Records of the text: fields split by `delimiter`, `"…"` quoting with `""` for a quote, any line ending. */
function records(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The first line's list separator: a comma unless it has none and has a semicolon or a tab. */
function delimiterOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  if (firstLine.includes(',')) return ',';
  if (firstLine.includes(';')) return ';';
  return firstLine.includes('\t') ? '\t' : ',';
}

const HEADER_NAMES = new Set(['email', 'e-mail', 'email address', 'e-mail address', 'mail']);
const VALUE_SHOWN = 100;

/** Reads the file's bytes into rows: the valid addresses, the repeated ones and the invalid ones, by row number. */
export function readRecipientCsv(bytes: Uint8Array): CsvReading {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { refused: CSV_MESSAGES.notText };
  }
  // A NUL has no place in text (and PostgreSQL cannot store one): a binary file named .csv.
  if (text.includes('\0')) return { refused: CSV_MESSAGES.notText };
  const all = records(text, delimiterOf(text));
  if (all.length > MAX_IMPORT_ROWS) return { refused: CSV_MESSAGES.tooManyRows };

  // A first row without an address is a header: its email column is read, else the first one.
  const first = all[0] ?? [];
  const hasHeader = !first.some((cell) => cell.includes('@'));
  const named = first.findIndex((cell) => HEADER_NAMES.has(cell.trim().toLowerCase()));
  const column = hasHeader
    ? Math.max(named, 0)
    : Math.max(
        first.findIndex((cell) => cell.includes('@')),
        0,
      );

  const valid: CsvRow[] = [];
  const duplicates: (CsvRow & { first_row: number })[] = [];
  const invalid: { row: number; value: string; message: string }[] = [];
  const seen = new Map<string, number>();
  for (const [index, cells] of all.entries()) {
    const row = index + 1;
    if ((hasHeader && index === 0) || cells.every((cell) => cell.trim() === '')) continue;
    const value = cells[column] ?? '';
    if (value.trim() === '') {
      invalid.push({ row, value: '', message: CSV_MESSAGES.noAddressInRow });
      continue;
    }
    const parsed = addRecipientPayload.shape.email.safeParse(value);
    if (!parsed.success) {
      invalid.push({ row, value: value.trim().slice(0, VALUE_SHOWN), message: parsed.error.issues[0]!.message });
      continue;
    }
    const email = parsed.data;
    const firstRow = seen.get(email);
    if (firstRow !== undefined) duplicates.push({ row, email, first_row: firstRow });
    else {
      seen.set(email, row);
      valid.push({ row, email });
    }
  }
  if (valid.length + duplicates.length + invalid.length === 0) return { refused: CSV_MESSAGES.noAddresses };
  return { valid, duplicates, invalid };
}
