import { mkdtemp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { BuildPointer } from '../../../src/front/build-pointer.ts';

async function fakeBuild(dir: string, id: string, html: string): Promise<void> {
  await mkdir(path.join(dir, id, 'acme'), { recursive: true });
  await writeFile(path.join(dir, id, 'acme', 'index.html'), html);
}

test('switching points `current` at the new build and keeps only the one before it', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  const pointer = new BuildPointer(dir);
  expect(await pointer.current()).toBeNull();

  for (const id of ['a1', 'a2', 'a3']) {
    await fakeBuild(dir, id, id);
    await pointer.switchTo(id);
  }
  const folder = await pointer.current(Date.now() + 1000);
  expect(pointer.currentId).toBe('a3');
  expect(folder?.root).toBe(path.join(dir, 'a3'));
  expect((await readdir(dir)).filter((n) => !n.startsWith('.')).sort()).toEqual(['a2', 'a3', 'current']);
});

test('a switch made by another process is seen by a running front', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  const front = new BuildPointer(dir);
  const rebuilder = new BuildPointer(dir);
  await fakeBuild(dir, 'b1', 'one');
  await rebuilder.switchTo('b1');
  await front.current(1);
  await fakeBuild(dir, 'b2', 'two');
  await rebuilder.switchTo('b2');
  expect(front.currentId).toBe('b1');
  await front.current(10_000);
  expect(front.currentId).toBe('b2');
});

test('the live folder is known without waiting only while its last look is fresh', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  const front = new BuildPointer(dir);
  await fakeBuild(dir, 'c1', 'one');
  await front.switchTo('c1');
  expect(front.currentIfFresh(1_000)).toBeUndefined();
  const folder = await front.current(1_000);
  expect(front.currentIfFresh(1_499)).toBe(folder);
  expect(front.currentIfFresh(1_500)).toBeUndefined();
});
