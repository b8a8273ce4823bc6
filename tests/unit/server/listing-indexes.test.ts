/**
 * How long a store's listing index is reused, when the catalog's version is asked and when the store is read
 * again (docs/decisions/200-listing-index.md), with reads that end when the test says: a large store's read
 * outlasts a quarter of the index's life.
 */
import type { Kysely } from 'kysely';
import { expect, test } from 'vitest';
import type { Database } from '../../../src/server/db/schema.ts';
import {
  LISTING_INDEX_MAX_LIFE_MS,
  ListingIndexes,
  type ListingIndex,
} from '../../../src/server/listings/listing-index.ts';

/** The reads below are the test's own: they never touch a database. */
const db = undefined as unknown as Kysely<Database>;

/**
 * Reads of the index that the test ends one by one, each giving an index told apart by its entry count, and
 * a catalog version the test moves, as migration 0028's triggers do on a write.
 */
function slowReads() {
  const pending: ((index: ListingIndex) => void)[] = [];
  let started = 0;
  let version = 1;
  let asked = 0;
  const load = () => {
    started += 1;
    return new Promise<ListingIndex>((resolve) => pending.push(resolve));
  };
  const finishNext = (entries: number) =>
    pending.shift()!({ entries: Array.from({ length: entries }) } as unknown as ListingIndex);
  const options = {
    load,
    version: async () => {
      asked += 1;
      return String(version);
    },
  };
  return {
    options,
    finishNext,
    started: () => started,
    asked: () => asked,
    write: () => {
      version += 1;
    },
  };
}

const entriesOf = async (index: Promise<ListingIndex>) => (await index).entries.length;
const aClock = () => {
  const clock = { ms: 0, now: () => new Date(clock.ms) };
  return clock;
};

/** Indexes with a life of 1 s whose store 1 was read once, at 0 ms, into an index of one entry. */
async function readOnce() {
  const reads = slowReads();
  const clock = aClock();
  const indexes = new ListingIndexes(1000, clock, reads.options);
  const first = indexes.of(db, 1);
  await expect.poll(() => reads.started()).toBe(1);
  reads.finishNext(1);
  await first;
  return { reads, clock, indexes };
}

test('a read longer than the life: the index lives from the end of its read, and past it while the next one runs', async () => {
  const reads = slowReads();
  const clock = aClock();
  const indexes = new ListingIndexes(1000, clock, reads.options);

  const first = indexes.of(db, 1);
  clock.ms = 500; // a call while the first read runs waits for that read, and starts none
  const second = indexes.of(db, 1);
  await expect.poll(() => reads.started()).toBe(1);
  clock.ms = 2100;
  reads.finishNext(1);
  expect(await entriesOf(first)).toBe(1);
  expect(await entriesOf(second)).toBe(1);

  clock.ms = 2200; // 2.2 s after the read began, 0.1 s after it ended: answered from it, nothing asked
  const asked = reads.asked();
  expect(await entriesOf(indexes.of(db, 1))).toBe(1);
  expect(reads.asked()).toBe(asked);

  reads.write();
  clock.ms = 2900; // past three quarters of its life: answered now, checked and read again in the background
  expect(await entriesOf(indexes.of(db, 1))).toBe(1);
  await expect.poll(() => reads.started()).toBe(2);

  clock.ms = 3500; // past its life, that read still running: no call waits for a read of its own
  expect(await entriesOf(indexes.of(db, 1))).toBe(1);
  expect(reads.started()).toBe(2);

  clock.ms = 4000;
  reads.finishNext(2);
  await expect.poll(() => entriesOf(indexes.of(db, 1))).toBe(2);
  expect(reads.started()).toBe(2);
});

test('nothing written: past its life the version is asked, and the store is not read again', async () => {
  const { reads, clock, indexes } = await readOnce();

  for (const ms of [800, 1700, 2600, 30_000]) {
    clock.ms = ms;
    const asked = reads.asked();
    expect(await entriesOf(indexes.of(db, 1))).toBe(1);
    await expect.poll(() => reads.asked()).toBe(asked + 1);
  }
  expect(reads.started()).toBe(1);
});

test('after a quiet spell the next call waits for the check, and for the read when the catalog changed', async () => {
  const { reads, clock, indexes } = await readOnce();

  reads.write();
  clock.ms = 5000;
  const later = indexes.of(db, 1);
  await expect.poll(() => reads.started()).toBe(2);
  reads.finishNext(3);
  expect(await entriesOf(later)).toBe(3);
});

test('an index as old as the longest life is read again though the version did not move', async () => {
  const { reads, clock, indexes } = await readOnce();

  clock.ms = LISTING_INDEX_MAX_LIFE_MS - 1;
  expect(await entriesOf(indexes.of(db, 1))).toBe(1);
  expect(reads.started()).toBe(1);
  clock.ms = LISTING_INDEX_MAX_LIFE_MS + 1000;
  const later = indexes.of(db, 1);
  await expect.poll(() => reads.started()).toBe(2);
  reads.finishNext(2);
  expect(await entriesOf(later)).toBe(2);
});

test('a store forgotten while it was read keeps nothing of that read', async () => {
  const reads = slowReads();
  const clock = aClock();
  const indexes = new ListingIndexes(1000, clock, reads.options);
  const first = indexes.of(db, 1);
  await expect.poll(() => reads.started()).toBe(1);
  indexes.forget(1);
  reads.finishNext(1);
  expect(await entriesOf(first)).toBe(1);

  const next = indexes.of(db, 1);
  await expect.poll(() => reads.started()).toBe(2);
  reads.finishNext(2);
  expect(await entriesOf(next)).toBe(2);
});
