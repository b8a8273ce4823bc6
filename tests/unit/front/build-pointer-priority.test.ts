import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, vi } from 'vitest';
import { BuildPointer } from '../../../src/front/build-pointer.ts';

/** Every priority the pointer set, with the priority the process had right after. */
const set = vi.hoisted(() => [] as { pid: number; asked: number; got: number }[]);
vi.mock('node:os', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:os')>();
  const setPriority = (pid: number, priority: number) => {
    real.setPriority(pid, priority);
    set.push({ pid, asked: priority, got: real.getPriority(pid) });
  };
  return { ...real, default: { ...real, setPriority }, setPriority };
});

test('a pruned build is deleted by another process at the lowest CPU priority, not by this one', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'builds-'));
  for (const id of ['p1', 'p2']) {
    await mkdir(path.join(dir, id, 'acme', 'product', 'x'), { recursive: true });
    await writeFile(path.join(dir, id, 'acme', 'product', 'x', 'index.html'), id);
  }
  const pointer = new BuildPointer(dir);
  await pointer.switchTo('p2', 1);
  await pointer.prune(new Set());
  await pointer.deleted();
  expect((await readdir(dir)).sort()).toEqual(['current', 'p2']);
  expect(set).toHaveLength(1);
  expect(set[0]).toMatchObject({ asked: os.constants.priority.PRIORITY_LOW, got: 19 });
  expect(set[0]!.pid).not.toBe(process.pid);
  // This process kept its own priority: shoppers are answered as before.
  expect(os.getPriority()).toBe(0);
});
