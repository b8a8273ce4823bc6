import { describe, expect, test } from 'vitest';
import { checkBudgets } from '../../../scripts/bench/budgets.ts';
import { ownerOf, splitByOwner } from '../../../scripts/bench/source-map-split.ts';
import { median } from '../../../scripts/bench/stats.ts';

describe('source-map split', () => {
  test('React, Astro and nanostores are framework; other packages libs; src ours', () => {
    expect(ownerOf('../../../node_modules/react-dom/cjs/react-dom-client.production.js')).toBe('framework');
    expect(ownerOf('../../../node_modules/nanostores/atom/index.js')).toBe('framework');
    expect(ownerOf('../../../node_modules/libphonenumber-js/es6/format.js')).toBe('libs');
    expect(ownerOf('../../../src/islands/cart/CartView.tsx')).toBe('ours');
  });

  test("a chunk's characters are shared out by the sources its segments map to", () => {
    // Line 1: columns 0-9 from source 0 (react), 10-19 from source 1 (ours). "AAAA" = [0,0,0,0]; "UCAA" = [10,1,0,0].
    const code = 'a'.repeat(20);
    const split = splitByOwner(code, { sources: ['node_modules/react/index.js', 'src/x.ts'], mappings: 'AAAA,UCAA' });
    expect(split.framework).toBe(10);
    expect(split.ours).toBe(11); // 10 characters and the newline
    expect(split.libs).toBe(0);
  });
});

describe('budgets', () => {
  test('a store front over 5 KB of script and a slow build are missed budgets', () => {
    const sizes = { raw: 0, gzip: 6000, brotli: 0 };
    const budgets = checkBudgets({
      js: [
        {
          page: 'store front',
          path: '/acme',
          files: [],
          inline: sizes,
          total: sizes,
          gzipByOwner: { framework: 0, libs: 0, ours: 0 },
          brotliByOwner: { framework: 0, libs: 0, ours: 0 },
          blockingScripts: [],
        },
      ],
      build: [
        {
          catalog: '10,000 products',
          pages: 10_000,
          wallSeconds: 50,
          pagesPerSecond: 200,
          peakMemoryMiB: 900,
          astroBuilt: false,
        },
      ],
    });
    expect(budgets.filter((b) => !b.pass).map((b) => b.budget)).toEqual([
      'store front: JS ≤ 5 KB gzip (cart count + build poller only)',
      'build 10,000 products ≥ 400 pages/s',
    ]);
  });

  test('checkout over 110 KB of script or under 95 in Lighthouse mobile misses its budgets; desktop has none', () => {
    const checkout = (gzip: number) => ({
      page: 'checkout',
      path: '/acme/checkout',
      files: [],
      inline: { raw: 0, gzip: 0, brotli: 0 },
      total: { raw: 0, gzip, brotli: 0 },
      gzipByOwner: { framework: 0, libs: 0, ours: 0 },
      brotliByOwner: { framework: 0, libs: 0, ours: 0 },
      blockingScripts: [],
    });
    const lighthouse = (preset: 'mobile' | 'desktop', score: number) => ({
      page: 'checkout',
      preset,
      runs: 1,
      score,
      lcpMs: 2000,
      tbtMs: 300,
      cls: 0.1,
      totalBytes: 0,
      scores: [score],
    });
    const missed = (results: Parameters<typeof checkBudgets>[0]) =>
      checkBudgets(results)
        .filter((b) => !b.pass)
        .map((b) => b.budget);
    expect(
      missed({ js: [checkout(111 * 1024)], lighthouse: [lighthouse('mobile', 94), lighthouse('desktop', 50)] }),
    ).toEqual(['checkout: JS ≤ 110 KB gzip, React included', 'Lighthouse mobile checkout ≥ 95']);
    expect(missed({ js: [checkout(110 * 1024)], lighthouse: [lighthouse('mobile', 95)] })).toEqual([]);
  });

  test('median of an even count is the mean of the middle two', () => {
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });
});
