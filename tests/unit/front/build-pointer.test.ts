import { mkdtemp, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { BuildPointer } from '../../../src/front/build-pointer.ts';

/** A complete build folder: a page and its `builds/latest.json` (written last by a snapshot). */
async function fakeBuild(dir: string, id: string): Promise<void> {
  await mkdir(path.join(dir, id, 'acme'), { recursive: true });
  await writeFile(path.join(dir, id, 'acme', 'index.html'), id);
  await mkdir(path.join(dir, id, 'builds'), { recursive: true });
  await writeFile(path.join(dir, id, 'builds', 'latest.json'), JSON.stringify({ id }));
}

const builds = async (dir: string) => (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();

test('switching points `current` at the new build and serves it; a switch heard late never goes back', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  const pointer = new BuildPointer(dir);
  expect(pointer.current()).toBeNull();
  for (const id of ['a1', 'a2', 'a3']) await fakeBuild(dir, id);
  await pointer.switchTo('a1', 1);
  await pointer.switchTo('a3', 3);
  expect(pointer.currentId).toBe('a3');
  expect(pointer.current()?.root).toBe(path.join(dir, 'a3'));
  expect(await readlink(path.join(dir, 'current'))).toBe('a3');
  // The database's notification of switch 2 arrives after switch 3 was served.
  expect(pointer.show('a2', 2)).toBe(false);
  expect(pointer.currentId).toBe('a3');

  const restarted = new BuildPointer(dir);
  await restarted.showLinked();
  expect(restarted.currentId).toBe('a3');
});

test('pruning deletes every build folder but the kept ones and the live one', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  await writeFile(path.join(dir, '.rebuild-token'), 'secret');
  const pointer = new BuildPointer(dir);
  for (const id of ['b1', 'b2', 'b3', 'b4']) await fakeBuild(dir, id);
  await pointer.switchTo('b1', 1);
  await pointer.prune(new Set(['b3', 'b4']));
  expect(await builds(dir)).toEqual(['b1', 'b3', 'b4', 'current']);
  expect(await readdir(dir)).toContain('.rebuild-token');
  expect(await pointer.has('b2')).toBe(false);
  await pointer.deleted();
  expect((await readdir(dir)).sort()).toEqual(['.rebuild-token', 'b1', 'b3', 'b4', 'current']);
});

test('a prune a stopped process left half done is finished by the next one', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  const pointer = new BuildPointer(dir);
  for (const id of ['d1', 'd2']) await fakeBuild(dir, id);
  // What a process stopped while deleting leaves: the folder renamed, its files still there.
  await fakeBuild(dir, '.pruned-0a1b2c3d4e5f-d0');
  await pointer.switchTo('d2', 1);
  await pointer.prune(new Set(['d2']));
  await pointer.deleted();
  expect((await readdir(dir)).sort()).toEqual(['current', 'd2']);
});

test('two prunes at once (an instance that fetched a build while it switched) both end, and delete what neither keeps', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  const pointer = new BuildPointer(dir);
  const other = new BuildPointer(dir);
  for (const id of ['e1', 'e2', 'e3', 'e4']) await fakeBuild(dir, id);
  await pointer.switchTo('e4', 1);
  await other.showLinked();
  await Promise.all([pointer.prune(new Set(['e4'])), other.prune(new Set(['e4'])), pointer.prune(new Set(['e4']))]);
  await Promise.all([pointer.deleted(), other.deleted()]);
  expect((await readdir(dir)).sort()).toEqual(['current', 'e4']);
});

test('a payload names its own build: only builds once served live are answered from, while kept', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  const pointer = new BuildPointer(dir);
  for (const id of ['c1', 'c2', 'c3']) await fakeBuild(dir, id);
  await mkdir(path.join(dir, 'c4-half'), { recursive: true });
  await pointer.switchTo('c1', 1);
  await pointer.switchTo('c2', 2);
  expect((await pointer.servedFolder('c1'))?.root).toBe(path.join(dir, 'c1'));
  // c3 never went live (a preview): its data may not be public.
  expect(await pointer.servedFolder('c3')).toBeNull();
  expect((await pointer.folder('c3'))?.root).toBe(path.join(dir, 'c3'));
  // Half written, or a name that is no build id: nothing.
  expect(await pointer.folder('c4-half')).toBeNull();
  expect(await pointer.folder('../c1')).toBeNull();
  await pointer.prune(new Set());
  expect(await pointer.servedFolder('c1')).toBeNull();
});

/** A whole build: `fakeBuild` with the manifest a snapshot writes last. */
async function wholeBuild(dir: string, id: string): Promise<void> {
  await fakeBuild(dir, id);
  await writeFile(path.join(dir, id, '_manifest.json'), JSON.stringify({ id, files: [] }));
}

test('pruning keeps the newest whole build it prunes as the spare, in place of the last one', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  const pointer = new BuildPointer(dir);
  for (const id of ['f1', 'f2', 'f4']) await wholeBuild(dir, id);
  // Newer, but not whole (no manifest): never a spare.
  await fakeBuild(dir, 'f3');
  await writeFile(path.join(dir, 'f2.pages.json'), '{}');
  await pointer.switchTo('f4', 1);
  await pointer.prune(new Set(['f4']));
  await pointer.deleted();
  expect((await readdir(dir)).sort()).toEqual(['.spare-f2', 'current', 'f4']);
  expect(await pointer.spare()).toBe(path.join(dir, '.spare-f2'));
  // Hidden: never taken for a build.
  expect(await pointer.has('.spare-f2')).toBe(false);

  await wholeBuild(dir, 'f5');
  await pointer.switchTo('f5', 2);
  await pointer.prune(new Set(['f5']));
  await pointer.deleted();
  expect((await readdir(dir)).sort()).toEqual(['.spare-f4', 'current', 'f5']);

  // A prune with no whole build to keep leaves the spare as it is.
  await fakeBuild(dir, 'f6');
  await pointer.prune(new Set(['f5']));
  await pointer.deleted();
  expect((await readdir(dir)).sort()).toEqual(['.spare-f4', 'current', 'f5']);
});

test('a build takes the spare as its folder, once: it is no longer a whole build, nor a spare', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'builds-'));
  const pointer = new BuildPointer(dir);
  for (const id of ['g1', 'g2']) await wholeBuild(dir, id);
  await pointer.switchTo('g2', 1);
  await pointer.prune(new Set(['g2']));
  const spare = (await pointer.spare())!;
  const [first, second] = await Promise.all([pointer.takeSpare(spare, 'g3'), pointer.takeSpare(spare, 'g4')]);
  expect([first, second].sort()).toEqual([false, true]);
  const taker = first ? 'g3' : 'g4';
  expect(await readFile(path.join(dir, taker, 'acme', 'index.html'), 'utf8')).toBe('g1');
  expect(await pointer.has(taker)).toBe(false);
  // Nor a spare again, should the build stop half way: its manifest went first.
  expect((await readdir(path.join(dir, taker))).sort()).toEqual(['acme', 'builds']);
  expect(await pointer.spare()).toBeNull();
  // Nothing outside the builds folder is taken for a spare.
  expect(await pointer.takeSpare(path.join(dir, taker), 'g5')).toBe(false);
});
