import { describe, expect, test } from 'vitest';
import type { LoadFigures } from '../../../scripts/bench/api-bench.ts';
import {
  BUILD_OF_PLAIN_ASTRO,
  checkBudgets,
  PACED_FRACTION_OF_CEILING,
  STATIC_OF_NGINX,
  type BenchResults,
} from '../../../scripts/bench/budgets.ts';
import type { BuildFigures } from '../../../scripts/bench/build-bench.ts';
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
  test('a store front over 5 KB of script and a build without its reference are missed budgets', () => {
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
      `build 10,000 products ≥ ${BUILD_OF_PLAIN_ASTRO}× the pages/s of a plain Astro build of as many pages`,
    ]);
  });

  const machine = { at: '2026-11-27T19:00:00.000Z', loadAverage: 6.5, machine: '2 CPUs Test CPU' };
  const measured = { build: machine, api: machine, static: machine };
  const missed = (results: BenchResults) =>
    checkBudgets({ ...results, measured })
      .filter((b) => !b.pass)
      .map((b) => b.budget);

  test('the build is judged by its pages/s as a fraction of the plain Astro build beside it, not by pages/s alone', () => {
    const build = (pagesPerSecond: number, plainPagesPerSecond: number): BuildFigures => ({
      catalog: '10,000 products',
      pages: 10_103,
      wallSeconds: 10_103 / pagesPerSecond,
      pagesPerSecond,
      peakMemoryMiB: 900,
      astroBuilt: false,
      plainAstro: { pages: 10_103, wallSeconds: 10_103 / plainPagesPerSecond, pagesPerSecond: plainPagesPerSecond },
    });
    // The slow machine: 210 pages/s failed an absolute 400; against a plain build as slowed it passes.
    expect(missed({ build: [build(210, (210 / BUILD_OF_PLAIN_ASTRO) * 0.99)] })).toEqual([]);
    expect(missed({ build: [build(210, (210 / BUILD_OF_PLAIN_ASTRO) * 1.01)] })).toHaveLength(1);
    const [budget] = checkBudgets({ build: [build(210, 300)], measured });
    expect(budget?.measured).toBe('0.70× (210 vs 300 pages/s, 10,103 pages; 2 CPUs Test CPU, load 6.5)');
  });

  test('the paced p99 is offered a fraction of the ceiling measured beside it, and must keep that rate', () => {
    const ceiling: LoadFigures = {
      name: 'bare node:http JSON',
      target: 'node:http',
      requestsPerSecond: 24_000,
      p50Ms: 0,
      p99Ms: 1,
      non2xx: 0,
      errors: 0,
    };
    const offeredRate = Math.round(24_000 * PACED_FRACTION_OF_CEILING);
    const paced = (p99Ms: number, requestsPerSecond = offeredRate): LoadFigures => ({
      name: 'POST …/cart_line_items',
      target: 'PostgreSQL, paced',
      requestsPerSecond,
      p50Ms: 2,
      p99Ms,
      non2xx: 0,
      errors: 0,
      offeredRate,
    });
    const budget = 'POST …/cart_line_items p99 ≤ 20 ms, paced at 1/80 of bare node:http (PostgreSQL)';
    expect(missed({ api: { ceiling, fixedRate: [paced(19.9)] } })).toEqual([]);
    expect(missed({ api: { ceiling, fixedRate: [paced(20.1)] } })).toEqual([budget]);
    expect(missed({ api: { ceiling, fixedRate: [paced(5, offeredRate * 0.9)] } })).toEqual([budget]);
    expect(checkBudgets({ api: { ceiling, fixedRate: [paced(7.5)] }, measured })[0]?.measured).toBe(
      '7.5 ms (at 300 of 300 req/s offered, ceiling 24,000 req/s; 2 CPUs Test CPU, load 6.5)',
    );
  });

  test('static serving is held to 80% of nginx in the same run', () => {
    const figures = (target: string, requestsPerSecond: number, ofCeiling?: number): LoadFigures => ({
      name: 'static /acme/products/x',
      target,
      requestsPerSecond,
      p50Ms: 0,
      p99Ms: 1,
      non2xx: 0,
      errors: 0,
      ...(ofCeiling === undefined ? {} : { ofCeiling }),
    });
    const run = (ours: number) => ({ static: [figures('storefront', ours * 10_000, ours), figures('nginx', 10_000)] });
    expect(missed(run(STATIC_OF_NGINX))).toEqual([]);
    expect(missed(run(0.79))).toEqual(['static product page ≥ 80% of nginx']);
    expect(checkBudgets({ ...run(0.85), measured })[0]?.measured).toBe(
      '85% (8,500 of 10,000 req/s; 2 CPUs Test CPU, load 6.5)',
    );
  });

  test("Lighthouse's TBT is shown but not a budget of its own: the score weighs it", () => {
    const shop = {
      page: 'shop',
      preset: 'mobile' as const,
      runs: 3,
      score: 99,
      lcpMs: 1200,
      tbtMs: 54,
      cls: 0,
      totalBytes: 40_000,
      scores: [99, 99, 100],
    };
    expect(missed({ lighthouse: [shop] })).toEqual([]);
    expect(missed({ lighthouse: [{ ...shop, score: 97 }] })).toEqual(['Lighthouse mobile shop ≥ 98']);
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
