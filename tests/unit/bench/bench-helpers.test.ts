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

  test('median of an even count is the mean of the middle two', () => {
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });
});
