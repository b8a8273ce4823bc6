/**
 * Stock rules over plain data (docs/decisions/090-stock-taken-at-finalize.md): what a cart wants of
 * each variant, and the words a shopper reads when there is not enough. Used alike by the cart
 * rules, checkout and finalize.
 */

/** One cart line as the stock rules see it: a product line, or one item line of a bundle. */
export type StockLine = {
  variantId: number;
  /** The product's name, as the shopper knows the item. */
  name: string;
  stock: number;
  quantity: number;
};

export type VariantDemand = {
  variantId: number;
  name: string;
  stock: number;
  /** Units wanted in all: the variant's own line plus its share of every bundle line. */
  demand: number;
};

/** Units wanted of each variant across every line, in the order the variants first appear. */
export function demandByVariant(lines: readonly StockLine[]): VariantDemand[] {
  const byVariant = new Map<number, VariantDemand>();
  for (const line of lines) {
    const known = byVariant.get(line.variantId);
    if (known) known.demand += line.quantity;
    else
      byVariant.set(line.variantId, {
        variantId: line.variantId,
        name: line.name,
        stock: line.stock,
        demand: line.quantity,
      });
  }
  return [...byVariant.values()];
}

/** The first variant wanted beyond its stock, or undefined when the stock covers every line. */
export function firstShortfall(lines: readonly StockLine[]): VariantDemand | undefined {
  return demandByVariant(lines).find((d) => d.demand > d.stock);
}

/** The refusal a shopper reads when a variant's stock does not cover what is wanted. */
export function stockMessage(stock: number, name: string): string {
  return stock <= 0 ? `${name} is out of stock.` : `Only ${stock} of ${name} left in stock.`;
}
