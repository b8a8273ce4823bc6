/**
 * How long a store's listing index is reused and when it is read again (docs/decisions/200-listing-index.md),
 * with reads that end when the test says: a large store's read outlasts a quarter of the index's life.
 */
import type { Kysely } from 'kysely';
import { expect, test } from 'vitest';
import type { Database } from '../../../src/server/db/schema.ts';
import { ListingIndexes, type ListingIndex } from '../../../src/server/listings/listing-index.ts';

/** The reads below are the test's own: they never touch a database. */
const db = undefined as unknown as Kysely<Database>;

/** Reads of the index that the test ends one by one, each giving an index told apart by its entry count. */
function slowReads() {
  const pending: ((index: ListingIndex) => void)[] = [];
  let started = 0;
  const load = () => {
    started += 1;
    return new Promise<ListingIndex>((resolve) => pending.push(resolve));
  };
  const finishNext = (entries: number) =>
    pending.shift()!({ entries: Array.from({ length: entries }) } as unknown as ListingIndex);
  return { load, finishNext, started: () => started };
}

const entriesOf = async (index: Promise<ListingIndex>) => (await index).entries.length;

test('a read longer than the life: the index lives from the end of its read, and past it while the next one runs', async () => {
  const reads = slowReads();
  const clock = { ms: 0, now: () => new Date(clock.ms) };
  const indexes = new ListingIndexes(1000, clock, { load: reads.load });

  const first = indexes.of(db, 1);
  clock.ms = 500; // a call while the first read runs waits for that read, and starts none
  const second = indexes.of(db, 1);
  expect(reads.started()).toBe(1);
  clock.ms = 2100;
  reads.finishNext(1);
  expect(await entriesOf(first)).toBe(1);
  expect(await entriesOf(second)).toBe(1);

  clock.ms = 2200; // 2.2 s after the read began, 0.1 s after it ended: answered from it
  expect(await entriesOf(indexes.of(db, 1))).toBe(1);
  expect(reads.started()).toBe(1);

  clock.ms = 2900; // past three quarters of its life: answered now, read again in the background
  expect(await entriesOf(indexes.of(db, 1))).toBe(1);
  expect(reads.started()).toBe(2);

  clock.ms = 3500; // past its life, that read still running: no call waits for a read of its own
  expect(await entriesOf(indexes.of(db, 1))).toBe(1);
  expect(reads.started()).toBe(2);

  clock.ms = 4000;
  reads.finishNext(2);
  await expect.poll(() => entriesOf(indexes.of(db, 1))).toBe(2);
  expect(reads.started()).toBe(2);
});

test('after a quiet spell, with no read running, the next call reads the index and waits for it', async () => {
  const reads = slowReads();
  const clock = { ms: 0, now: () => new Date(clock.ms) };
  const indexes = new ListingIndexes(1000, clock, { load: reads.load });
  const first = indexes.of(db, 1);
  reads.finishNext(1);
  await first;

  clock.ms = 5000;
  const later = indexes.of(db, 1);
  expect(reads.started()).toBe(2);
  reads.finishNext(3);
  expect(await entriesOf(later)).toBe(3);
});
