import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CompressedWriter, PAGE_COMPRESSION } from '../../../src/front/compression.ts';

let folder: string;
let writer: CompressedWriter;
beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'writer-'));
  writer = new CompressedWriter();
});
afterEach(() => writer.close());

const page = `<html>${'<p>a page</p>'.repeat(200)}</html>`;

test('a page gets a .br and no .gz, decoding to the page (docs/decisions/222-pages-compressed-once.md)', async () => {
  const file = path.join(folder, 'index.html');
  const written = await writer.write(file, page, PAGE_COMPRESSION);
  expect(written.map((entry) => path.basename(entry.file))).toEqual(['index.html', 'index.html.br']);
  expect((await readdir(folder)).sort()).toEqual(['index.html', 'index.html.br']);
  expect(brotliDecompressSync(await readFile(`${file}.br`)).toString()).toBe(page);
});

test('bytes given to move go to the thread as they are; others, and a view of a larger buffer, are copied', async () => {
  const moved = new TextEncoder().encode(page);
  await writer.write(path.join(folder, 'moved.html'), moved, PAGE_COMPRESSION, { move: true });
  expect(moved.byteLength).toBe(0);
  const kept = new TextEncoder().encode(page);
  await writer.write(path.join(folder, 'kept.html'), kept, PAGE_COMPRESSION);
  expect(new TextDecoder().decode(kept)).toBe(page);
  const larger = new TextEncoder().encode(`${page}and more`);
  const view = larger.subarray(0, page.length);
  await writer.write(path.join(folder, 'view.html'), view, PAGE_COMPRESSION, { move: true });
  expect(larger.byteLength).toBe(page.length + 'and more'.length);
  for (const name of ['moved.html', 'kept.html', 'view.html'])
    expect(await readFile(path.join(folder, name), 'utf8'), name).toBe(page);
});

/** Waits on this thread, without yielding to the event loop, until `done` or `ms` have passed. */
function blockUntil(done: () => boolean, ms: number): boolean {
  const deadline = Date.now() + ms;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!done()) {
    if (Date.now() > deadline) return false;
    Atomics.wait(pause, 0, 0, 5);
  }
  return true;
}

test('the files of a turn that queues many go to the threads before the turn ends', async () => {
  // A snapshot's renders can queue a hundred pages' files without yielding (their API answers are kept):
  // the threads must not wait for the turn's end to start on them.
  const files = Array.from({ length: 40 }, (_, index) => path.join(folder, `${index}`, 'index.html'));
  const written = files.map((file) => writer.write(file, page, PAGE_COMPRESSION));
  expect(blockUntil(() => existsSync(files[0]!), 10_000)).toBe(true);
  await Promise.all(written);
  for (const file of files) expect(await readFile(file, 'utf8')).toBe(page);
});
