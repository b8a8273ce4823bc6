import { expect, test } from 'vitest';
import { eachAtMost } from '../../src/lib/each-at-most.ts';

test('every item once, never more than the limit at once', async () => {
  let running = 0;
  let most = 0;
  const seen: number[] = [];
  await eachAtMost([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
    running += 1;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => setImmediate(resolve));
    seen.push(item);
    running -= 1;
  });
  expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  expect(most).toBe(3);
});

test('a failure rejects it, and no item starts after', async () => {
  const started: number[] = [];
  const work = eachAtMost([1, 2, 3, 4], 1, async (item) => {
    started.push(item);
    if (item === 2) throw new Error('item 2 failed');
  });
  await expect(work).rejects.toThrow('item 2 failed');
  expect(started).toEqual([1, 2]);

  const alongside: number[] = [];
  const slow = eachAtMost([1, 2, 3, 4, 5, 6], 2, async (item) => {
    alongside.push(item);
    if (item === 1) throw new Error('item 1 failed');
    await new Promise<void>((resolve) => setImmediate(resolve));
  });
  await expect(slow).rejects.toThrow('item 1 failed');
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(alongside).toEqual([1, 2]);
});

test('no items: nothing is called', async () => {
  await expect(eachAtMost([], 4, () => Promise.reject(new Error('called')))).resolves.toBeUndefined();
});
