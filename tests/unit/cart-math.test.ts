import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_QUANTITY } from '../../src/lib/contract/limits.ts';
import { centsToDecimal, decimalToCents } from '../../src/lib/money.ts';
import {
  allocateGiftCards,
  bundleLines,
  computeTotals,
  countCartUnits,
  taxFor,
  type PricingRule,
} from '../../src/server/domain/cart-math.ts';

const cents = fc.integer({ min: 0, max: 1_000_000 });
const rule = fc.record<PricingRule>({
  taxRateBps: fc.integer({ min: 0, max: 3_000 }),
  shippingFlatCents: fc.integer({ min: 0, max: 5_000 }),
  freeShippingThresholdCents: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
});
const line = fc.record({
  unitPriceCents: fc.integer({ min: 0, max: 100_000 }),
  quantity: fc.integer({ min: 1, max: MAX_QUANTITY }),
  bundleId: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
  bundleQuantity: fc.constant(1),
});
const cards = fc.array(
  fc.record({ id: fc.uuid(), code: fc.string({ minLength: 4, maxLength: 8 }), balanceCents: cents }),
  { maxLength: 5 },
);

// Named fixture: the demo store's rule (8.25 % tax, 5.99 shipping, free from 75.00).
const ACME: PricingRule = { taxRateBps: 825, shippingFlatCents: 599, freeShippingThresholdCents: 7_500 };

describe('money', () => {
  test('cents survive the round trip through the two-decimal wire format', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => decimalToCents(centsToDecimal(n)) === n));
  });

  test('wire amounts always have exactly two decimals', () => {
    fc.assert(fc.property(cents, (n) => /^\d+\.\d{2}$/.test(centsToDecimal(n))));
  });
});

describe('cart totals', () => {
  test('the demo store charges 8.25 % tax and 5.99 shipping below 75.00', () => {
    const totals = computeTotals(
      [{ unitPriceCents: 2_000, quantity: 1, bundleId: null, bundleQuantity: null }],
      ACME,
      [],
    );
    expect(totals).toMatchObject({ subtotalCents: 2_000, taxCents: 165, shippingCents: 599, totalCents: 2_764 });
  });

  test('total = subtotal + tax + shipping − gift cards, never below zero, and every card takes at most its balance', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), rule, cards, (lines, r, cs) => {
        const t = computeTotals(lines, r, cs);
        expect(t.totalCents).toBe(t.subtotalCents + t.taxCents + t.shippingCents - t.giftCardsCents);
        expect(t.totalCents).toBeGreaterThanOrEqual(0);
        t.giftCards.forEach((g, i) => {
          expect(g.amountCents).toBeGreaterThanOrEqual(0);
          expect(g.amountCents).toBeLessThanOrEqual(cs[i]!.balanceCents);
        });
        for (const value of [t.subtotalCents, t.taxCents, t.shippingCents, t.totalCents])
          expect(Number.isSafeInteger(value)).toBe(true);
      }),
    );
  });

  test('gift cards cover the bill in the order applied and stop when nothing is owed', () => {
    fc.assert(
      fc.property(cents, cards, (due, cs) => {
        const amounts = allocateGiftCards(due, cs);
        const used = amounts.reduce((s, a) => s + a.amountCents, 0);
        expect(used).toBe(
          Math.min(
            due,
            cs.reduce((s, c) => s + c.balanceCents, 0),
          ),
        );
        const firstShort = amounts.findIndex((a, i) => a.amountCents < cs[i]!.balanceCents);
        if (firstShort >= 0) amounts.slice(firstShort + 1).forEach((a) => expect(a.amountCents).toBe(0));
      }),
    );
  });

  test('tax rounds half up to the cent and never exceeds the exact amount by more than half a cent', () => {
    expect(taxFor(1_000, 825)).toBe(83); // 82.5 → 83
    fc.assert(
      fc.property(
        cents,
        fc.integer({ min: 0, max: 10_000 }),
        (sub, bps) => Math.abs(taxFor(sub, bps) - (sub * bps) / 10_000) <= 0.5,
      ),
    );
  });

  test('an empty cart owes nothing, shipping included', () => {
    fc.assert(fc.property(rule, (r) => computeTotals([], r, []).totalCents === 0));
  });
});

describe('bundle grouping', () => {
  test('a bundle of n items becomes n lines sharing its id, each item quantity × bundle quantity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.record({ productVariantId: fc.integer({ min: 1 }), quantity: fc.integer({ min: 1, max: 9 }) }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 1, max: MAX_QUANTITY }),
        (id, items, q) => {
          const lines = bundleLines(id, items, q);
          expect(lines).toHaveLength(items.length);
          lines.forEach((l, i) => {
            expect(l.bundleId).toBe(id);
            expect(l.quantity).toBe(items[i]!.quantity * q);
          });
          // A bundle counts as its bundle quantity, whatever its items.
          expect(countCartUnits(lines)).toBe(q);
        },
      ),
    );
  });

  test('units are product quantities plus each bundle once per bundle quantity', () => {
    const lines = [
      { quantity: 2, bundleId: null, bundleQuantity: null },
      { quantity: 2, bundleId: 7, bundleQuantity: 2 },
      { quantity: 4, bundleId: 7, bundleQuantity: 2 },
      { quantity: 1, bundleId: 9, bundleQuantity: 1 },
    ];
    expect(countCartUnits(lines)).toBe(5);
  });
});
