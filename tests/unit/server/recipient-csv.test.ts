/** Reading a guest list from CSV (docs/decisions/204-recipients-and-domain-tokens.md), as spreadsheets save it. */
import { describe, expect, test } from 'vitest';
import { CSV_MESSAGES, MAX_IMPORT_ROWS, readRecipientCsv } from '../../../src/server/console/recipient-csv.ts';

const read = (text: string) => readRecipientCsv(new TextEncoder().encode(text));

describe('readRecipientCsv', () => {
  test('one address a row, lower-cased, numbered from 1 without a header', () => {
    expect(read('Ann@Example.com\nbob@example.com')).toEqual({
      valid: [
        { row: 1, email: 'ann@example.com' },
        { row: 2, email: 'bob@example.com' },
      ],
      duplicates: [],
      invalid: [],
    });
  });

  test('a header row is skipped and names the email column; rows keep their numbers', () => {
    const reading = read('Name,Email,Note\r\nAnn,ann@example.com,VIP\r\nBob,,\r\n');
    expect(reading).toEqual({
      valid: [{ row: 2, email: 'ann@example.com' }],
      duplicates: [],
      invalid: [{ row: 3, value: '', message: CSV_MESSAGES.noAddressInRow }],
    });
  });

  test('without a header the column holding an address in the first row is read', () => {
    expect(read('Ann,ann@example.com\nBob,bob@\n')).toMatchObject({
      valid: [{ row: 1, email: 'ann@example.com' }],
      invalid: [{ row: 2, value: 'bob@' }],
    });
  });

  test('quoted fields (separators, quotes and line breaks inside), semicolons, tabs, a BOM and old Mac line ends', () => {
    expect(read('\uFEFF"Doe; Jane";"jane@example.com"\r"x""y";joe@example.com')).toMatchObject({
      valid: [
        { row: 1, email: 'jane@example.com' },
        { row: 2, email: 'joe@example.com' },
      ],
    });
    expect(read('email\tname\nann@example.com\tAnn')).toMatchObject({ valid: [{ row: 2, email: 'ann@example.com' }] });
    expect(read('"Line\nbreak",ann@example.com\nb,bob@example.com')).toMatchObject({
      valid: [
        { row: 1, email: 'ann@example.com' },
        { row: 2, email: 'bob@example.com' },
      ],
    });
  });

  test('a repeated address counts once and names the row that had it first; blank rows are skipped', () => {
    expect(read('a@example.com\n\n  \nA@EXAMPLE.COM\n')).toEqual({
      valid: [{ row: 1, email: 'a@example.com' }],
      duplicates: [{ row: 4, email: 'a@example.com', first_row: 1 }],
      invalid: [],
    });
  });

  test('refuses a file that is not UTF-8 text, holds no address, or has too many rows', () => {
    expect(readRecipientCsv(new Uint8Array([0x61, 0xe9, 0x40, 0x62]))).toEqual({ refused: CSV_MESSAGES.notText });
    expect(read('a@example.com\0')).toEqual({ refused: CSV_MESSAGES.notText });
    expect(read('email\n\n')).toEqual({ refused: CSV_MESSAGES.noAddresses });
    expect(read('')).toEqual({ refused: CSV_MESSAGES.noAddresses });
    const rows = Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => `g${i}@example.com`).join('\n');
    expect(read(rows)).toEqual({ refused: CSV_MESSAGES.tooManyRows });
    expect(read(rows.split('\n').slice(1).join('\n'))).toMatchObject({ invalid: [] });
  });

  test('an invalid value is shown trimmed and cut at 100 characters', () => {
    const reading = read(`email\n  ${'x'.repeat(150)}  `);
    expect(reading).toMatchObject({ invalid: [{ row: 2, value: 'x'.repeat(100) }] });
  });
});
