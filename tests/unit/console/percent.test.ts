import { expect, test } from 'vitest';
import { bpsToPercent, percentToBps } from '../../../src/lib/percent.ts';

test('a percentage typed with up to two decimals, with or without a % sign, becomes basis points', () => {
  expect(percentToBps('8.25')).toBe(825);
  expect(percentToBps(' 8.5 % ')).toBe(850);
  expect(percentToBps('0')).toBe(0);
  expect(percentToBps('100')).toBe(10_000);
  expect(percentToBps('14.98')).toBe(1498);
});

test('anything else is no rate', () => {
  for (const typed of ['', 'eight', '-1', '100.01', '8.255', '1e2', '.5', '101'])
    expect(percentToBps(typed)).toBeNull();
});

test('basis points are shown as the shortest percentage', () => {
  expect(bpsToPercent(825)).toBe('8.25');
  expect(bpsToPercent(800)).toBe('8');
  expect(bpsToPercent(1498)).toBe('14.98');
  expect(percentToBps(bpsToPercent(1498))).toBe(1498);
});
