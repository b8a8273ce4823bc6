import { expect, test } from 'vitest';
import { BuildHolders, heldPayload } from '../../../src/server/publishing/build-holders.ts';

type Warning = { fields: unknown; message: string };

/** Holders among `instances` (this one is `self`); `answer` says which instances answer an ask, and how. */
function holders(instances: () => string[], answer: (id: string, holders: BuildHolders) => void, waitMs = 60_000) {
  const warnings: Warning[] = [];
  const asked: string[] = [];
  const built: BuildHolders = new BuildHolders({
    self: 'self',
    instances: async () => instances(),
    ask: async (id) => {
      asked.push(id);
      answer(id, built);
    },
    waitMs,
    logger: {
      info() {},
      error() {},
      warn: (fields: unknown, message: string) => void warnings.push({ fields, message }),
    },
  });
  return { built, warnings, asked };
}

test('going live waits until every other fetching instance said it holds the build', async () => {
  let said = false;
  const { built, asked, warnings } = holders(
    () => ['self', 'a', 'b'],
    (id, holders) => {
      holders.heard(heldPayload('a', id));
      // The slower one answers later, and an answer about another build counts for nothing.
      setImmediate(() => holders.heard(heldPayload('b', 'another-build')));
      setTimeout(() => {
        said = true;
        holders.heard(heldPayload('b', id));
      }, 20);
    },
  );
  await built.awaitAll('build-1');
  expect(said).toBe(true);
  expect(asked).toEqual(['build-1']);
  expect(warnings).toEqual([]);
});

test('no other instance fetches builds: nothing to wait for', async () => {
  const { built, warnings } = holders(
    () => ['self'],
    () => {},
  );
  await built.awaitAll('build-1');
  expect(warnings).toEqual([]);
});

test('an instance that stopped is no longer waited for', async () => {
  let connected = ['a', 'gone'];
  const { built, warnings } = holders(
    () => connected,
    (id, holders) => {
      holders.heard(heldPayload('a', id));
      setTimeout(() => (connected = ['a']), 20);
    },
  );
  await built.awaitAll('build-1');
  expect(warnings).toEqual([]);
});

test('past the wait it goes live anyway, naming the instances that still fetch', async () => {
  const { built, warnings } = holders(
    () => ['a', 'slow'],
    (id, holders) => holders.heard(heldPayload('a', id)),
    50,
  );
  await built.awaitAll('build-1');
  expect(warnings).toEqual([
    {
      fields: { build: 'build-1', instances: ['slow'] },
      message: 'going live before every instance holds the build: those serve the old one until their fetch ends',
    },
  ]);
});

test('a database that cannot be asked does not keep the build from going live', async () => {
  const warnings: Warning[] = [];
  const built = new BuildHolders({
    self: 'self',
    instances: () => Promise.reject(new Error('connection lost')),
    ask: async () => {},
    waitMs: 60_000,
    logger: {
      info() {},
      error() {},
      warn: (fields: unknown, message: string) => void warnings.push({ fields, message }),
    },
  });
  await built.awaitAll('build-1');
  expect(warnings.map((warning) => warning.message)).toEqual([
    'could not ask the other instances to hold the build; going live now',
  ]);
});
