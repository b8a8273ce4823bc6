import { describe, expect, test } from 'vitest';
import type { BuildFigures } from '../../../scripts/bench/build-bench.ts';
import {
  CONTENTION_DEFAULTS,
  contentionBudgets,
  ORDERS_OF_HOT_ROW_TAKES,
  type ContentionFigures,
} from '../../../scripts/bench/contention-bench.ts';
import {
  BUILD_TIMES_REFERENCE,
  IMPORT_TIMES_REFERENCE,
  scaleBudgets,
  type ScaleFigures,
} from '../../../scripts/bench/scale-bench.ts';

const clean: ContentionFigures = {
  ...CONTENTION_DEFAULTS,
  wallSeconds: 10,
  ordersPerSecond: 75,
  ofCeiling: 0.002,
  ceilingRequestsPerSecond: 20_000,
  ofHotRowTakes: ORDERS_OF_HOT_ROW_TAKES * 2,
  hotRowTakesPerSecond: 2_500,
  orderP50Ms: 900,
  orderP99Ms: 2000,
  outcomes: { ordered: 750, 'out of stock before payment': 0, 'refunded after payment': 150, declined: 100, error: 0 },
  errorSamples: [],
  variants: [{ sku: 'HOT-1', stock: 250, left: 0, sold: 250 }],
  oversold: 0,
  lostPayments: 0,
  lostSamples: [],
};
const failed = (list: { budget: string; pass: boolean }[]) => list.filter((b) => !b.pass).map((b) => b.budget);

describe('the contention budgets', () => {
  test('a clean run passes all four', () => {
    expect(failed(contentionBudgets(clean, 'test'))).toEqual([]);
  });
  test('one unit oversold, one payment lost or one unexpected answer fails the run whatever its speed', () => {
    expect(failed(contentionBudgets({ ...clean, oversold: 1 }, 'test'))).toEqual([
      expect.stringContaining('zero oversell'),
    ]);
    expect(failed(contentionBudgets({ ...clean, lostPayments: 1 }, 'test'))).toEqual([
      expect.stringContaining('zero lost payments'),
    ]);
    const error = { ...clean.outcomes, error: 1 };
    expect(failed(contentionBudgets({ ...clean, outcomes: error }, 'test'))).toEqual([
      expect.stringContaining('answer the contract allows'),
    ]);
  });
  test('orders per second below the ratio of the hot-row takes fail, whatever the bare ceiling', () => {
    const slow = { ...clean, ofHotRowTakes: ORDERS_OF_HOT_ROW_TAKES / 2, ofCeiling: 0.01 };
    expect(failed(contentionBudgets(slow, 'test'))).toEqual([expect.stringContaining('hot rows')]);
    expect(failed(contentionBudgets({ ...clean, ofCeiling: 0.0001 }, 'test'))).toEqual([]);
  });
  test('a run without its hot-row reference fails rather than passes', () => {
    const { ofHotRowTakes: _, ...unmeasured } = clean;
    expect(failed(contentionBudgets(unmeasured, 'test'))).toEqual([expect.stringContaining('hot rows')]);
  });
});

const build = (
  wallSeconds: number,
  peakMemoryMiB: number,
  importPeakMiB: number,
  importSeconds = 100,
): BuildFigures => ({
  catalog: 'x',
  pages: 1000,
  wallSeconds,
  pagesPerSecond: 1000 / wallSeconds,
  peakMemoryMiB,
  astroBuilt: false,
  importPeakMiB,
  importSeconds,
});
const scale = (big: BuildFigures): ScaleFigures => ({
  products: 100_000,
  reference: build(20, 1000, 900, 20),
  big,
  listings: [{ query: 'all', found: 1, medianMs: 1, p99Ms: 3 }],
  search: [],
  index: { entries: 1, readMedianMs: 1, readP99Ms: 1, blockMaxMs: 1 },
  minutes: 1,
});

describe('the scale budgets', () => {
  test(`the big build is judged against ${BUILD_TIMES_REFERENCE}× the reference of the same run`, () => {
    expect(failed(scaleBudgets(scale(build(20 * BUILD_TIMES_REFERENCE, 1500, 900)), 'test'))).toEqual([]);
    expect(failed(scaleBudgets(scale(build(20 * BUILD_TIMES_REFERENCE + 1, 1500, 900)), 'test'))).toEqual([
      expect.stringContaining('≤ 12×'),
    ]);
  });
  test(`the big import is judged against ${IMPORT_TIMES_REFERENCE}× the reference's import of the same run`, () => {
    const importing = (seconds: number | undefined) =>
      failed(scaleBudgets(scale({ ...build(100, 1500, 900), importSeconds: seconds }), 'test'));
    expect(importing(20 * IMPORT_TIMES_REFERENCE)).toEqual([]);
    // Ten times the products in a hundred times the time: a cost growing with the square of the catalog.
    expect(importing(20 * 100)).toEqual([expect.stringContaining('import of 100,000 products ≤ 12×')]);
    expect(importing(undefined)).toEqual([expect.stringContaining('import of 100,000 products ≤ 12×')]);
  });
  test('the import must stay under 1 GiB and the build under 2 GiB', () => {
    expect(failed(scaleBudgets(scale(build(100, 2048, 1024)), 'test'))).toEqual([
      expect.stringContaining('import'),
      expect.stringContaining('build 100,000 products peak memory'),
    ]);
  });
});
