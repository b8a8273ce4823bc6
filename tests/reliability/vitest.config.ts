import { defineConfig } from 'vitest/config';

/**
 * `npm run test:reliability`: faults and load against a real PostgreSQL (docs/reliability.md). Separate from
 * `npm test` because it restarts the local PostgreSQL server and runs a timed load; `.ci/run` runs it.
 */
export default defineConfig({
  test: {
    name: 'reliability',
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/reliability/**/*.test.ts'],
    environment: 'node',
    // The files share one PostgreSQL server, and one of them restarts it: never in parallel.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
