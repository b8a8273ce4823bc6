import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { emptyTrash, moveAside, msToWait } from '../../../scripts/bench/settle-disk.ts';

// docs/decisions/221-timed-builds-away-from-large-deletions.md
describe('timed builds away from large deletions', () => {
  let root: string;
  let trash: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'settle-disk-'));
    trash = path.join(root, 'trash');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  test("an earlier run's output is moved aside whole, not deleted, and a missing one is no error", async () => {
    const output = path.join(root, 'builds');
    await mkdir(path.join(output, 'page'), { recursive: true });
    await writeFile(path.join(output, 'page', 'index.html'), '<p>page</p>');
    await moveAside(output, trash);
    await moveAside(path.join(root, 'never-built'), trash);
    expect(existsSync(output)).toBe(false);
    const [aside, ...more] = await readdir(trash);
    expect(more).toEqual([]);
    expect(aside).toMatch(/^builds-/);
    expect(await readdir(path.join(trash, aside!, 'page'))).toEqual(['index.html']);
  });

  test('a timed build waits out the five minutes after the trash was emptied, and only those', async () => {
    expect(await msToWait(Date.now(), trash)).toBe(0);
    await moveAside(await mkdtemp(path.join(root, 'output-')), trash);
    await emptyTrash(trash);
    const after = Date.now();
    expect(await readdir(trash)).toEqual(['.emptied']);
    // Measured from the time the file system gave the note, at most a few milliseconds before `after`. The
    // note's time has sub-millisecond precision and `Date.now()` drops it, so the note can read up to a
    // millisecond later than `after`.
    const wait = await msToWait(after, trash);
    expect(wait).toBeGreaterThan(300_000);
    expect(wait).toBeLessThan(301_001);
    expect(await msToWait(after + 301_001, trash)).toBe(0);
  });
});
