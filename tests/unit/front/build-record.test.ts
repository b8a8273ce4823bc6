import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { newRecord, readRecord, recordFile, writeRecord, type BuildRecord } from '../../../src/front/build-record.ts';

function recordOf(pages: number): BuildRecord {
  const record = newRecord('fingerprint');
  record.requestHeaders = [['accept', 'application/json']];
  record.keys = ['/api/store_front/acme', '/api/store_front/acme/products/1'];
  // Paths JSON must escape, and enough pages that the record is written in several pieces.
  for (let i = 0; i < pages; i++)
    record.pages[`/acme/product/${i}-"ünïcode"\\`] = {
      files: [`acme/product/${i}/index.html`, `acme/product/${i}/index.html.br`],
      reads: [0, 1],
      inputs: i % 2 ? `inputs-${i}` : null,
      content: i % 3 ? `content-${i}` : null,
      images: [`/images/demo/tee-${i % 4}.svg?w=400&fm=webp`],
    };
  return record;
}

test('a record written a few pages at a time reads back as the same record, as the JSON of it', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'build-record-'));
  for (const [id, record] of [
    ['none', recordOf(0)],
    ['one', recordOf(1)],
    ['many', recordOf(3_000)],
  ] as const) {
    await writeRecord(dir, id, record);
    expect(await readRecord(dir, id)).toEqual(record);
    expect(await readFile(recordFile(dir, id), 'utf8')).toBe(JSON.stringify(record));
  }
});
