import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { quantityLimit, stockChangeShows, stockLabel } from '../../src/lib/catalog/stock-label.ts';
import { demandByVariant, firstShortfall, stockMessage, type StockLine } from '../../src/server/domain/stock.ts';

// Named fixture: a tee on its own line and in two bundles, and a mug only in a bundle.
const tee = { variantId: 7, name: 'Classic Cotton Tee', stock: 40 };
const mug = { variantId: 3, name: 'Stoneware Mug', stock: 100 };
const teeInLineAndBundles: StockLine[] = [
  { ...tee, quantity: 25 },
  { ...mug, quantity: 2 },
  { ...tee, quantity: 10 },
  { ...tee, quantity: 5 },
];

describe('stock demand of a cart', () => {
  test('a variant’s demand is its own line plus its share of every bundle, in the order variants first appear', () => {
    expect(demandByVariant(teeInLineAndBundles)).toEqual([
      { ...tee, demand: 40 },
      { ...mug, demand: 2 },
    ]);
  });

  test('a shortfall is found only when the summed demand passes the stock', () => {
    expect(firstShortfall(teeInLineAndBundles)).toBeUndefined();
    expect(firstShortfall([...teeInLineAndBundles, { ...tee, quantity: 1 }])).toEqual({ ...tee, demand: 41 });
  });

  test('the demand of any cart is the sum of its lines, variant by variant', () => {
    const lines = fc.array(
      fc.record({
        variantId: fc.integer({ min: 1, max: 4 }),
        name: fc.constant('x'),
        stock: fc.constant(10),
        quantity: fc.integer({ min: 1, max: 99 }),
      }),
    );
    fc.assert(
      fc.property(lines, (ls) => {
        const demand = demandByVariant(ls);
        expect(demand.reduce((sum, d) => sum + d.demand, 0)).toBe(ls.reduce((sum, l) => sum + l.quantity, 0));
        expect(new Set(demand.map((d) => d.variantId)).size).toBe(demand.length);
      }),
    );
  });

  test('the refusal says sold out at zero, else how many are left', () => {
    expect(stockMessage(0, 'Limited Art Print')).toBe('Limited Art Print is out of stock.');
    expect(stockMessage(3, 'Polarised Sunglasses')).toBe('Only 3 of Polarised Sunglasses left in stock.');
  });
});

describe('the product page’s stock label', () => {
  test('sold out, “Only N left” at or below the threshold (5 unless the store sets one), else in stock', () => {
    expect([0, 1, 5, 6].map((stock) => stockLabel(stock).text)).toEqual([
      'Sold out',
      'Only 1 left',
      'Only 5 left',
      'In stock',
    ]);
    expect(stockLabel(3, 2)).toEqual({ kind: 'in', text: 'In stock' });
    expect(stockLabel(1, 0)).toEqual({ kind: 'in', text: 'In stock' });
  });

  test('the quantity picker offers up to the stock, within the per-line limit and at least 1', () => {
    expect([quantityLimit(3, 99), quantityLimit(500, 99), quantityLimit(0, 99)]).toEqual([3, 99, 1]);
  });
});

describe('which stock changes the store’s pages show', () => {
  test('a variant selling out or coming back shows; a sale that leaves some, or a low count changing, does not', () => {
    expect(stockChangeShows(2, 0)).toBe(true);
    expect(stockChangeShows(0, 3)).toBe(true);
    expect(stockChangeShows(40, 38)).toBe(false);
    // "Only 3 left" becomes "Only 2 left": the product page reads the count from the API on every view.
    expect(stockChangeShows(3, 2)).toBe(false);
    expect(stockChangeShows(0, 0)).toBe(false);
  });

  test('a variant a bundle holds three at a time shows when it passes three, either way', () => {
    expect(stockChangeShows(4, 2, [3])).toBe(true);
    expect(stockChangeShows(2, 5, [3])).toBe(true);
    expect(stockChangeShows(5, 3, [3])).toBe(false);
    expect(stockChangeShows(2, 1, [3])).toBe(false);
  });

  test('a change shows exactly when some page’s figure derived from stock differs', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.nat(200), fc.array(fc.integer({ min: 1, max: 99 }), { maxLength: 3 }), (a, b, qs) => {
        const buyable = (stock: number) => [stock > 0, ...qs.map((q) => stock >= q)].join();
        expect(stockChangeShows(a, b, qs)).toBe(buyable(a) !== buyable(b));
      }),
    );
  });
});
