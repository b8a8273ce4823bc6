/**
 * What the product and bundle pages' add-to-cart part shows for a given state: one pure function used
 * by the server render (src/components/catalog/AddToCart.astro) and by the plain script that keeps it
 * up to date in the browser (src/scripts/add-to-cart.ts), so the two never disagree
 * (docs/decisions/194-product-pages-without-react.md).
 */
import { MAX_QUANTITY } from '../contract/limits.ts';
import { formatCurrency } from '../money.ts';
import type { VariantView } from './catalog-card.ts';
import { quantityLimit, stockLabel, type StockLabel } from './stock-label.ts';
import { findVariant, isValueAvailable, optionValues, type Selection } from './variant-options.ts';

type Links = {
  slug: string;
  cartHref: string;
  homeHref: string;
};

/** What a product page's part is built from (inlined in the page as JSON for the script). */
export type ProductAddConfig = {
  kind: 'product';
  productId: string;
  name: string;
  optionNames: string[];
  variants: VariantView[];
  /** The store's `lowStockThreshold`; the default threshold when absent. */
  lowStockThreshold?: number | undefined;
} & Links;

/** What a bundle page's part is built from. */
export type BundleAddConfig = {
  kind: 'bundle';
  bundleId: string;
  name: string;
  price: string;
  available: boolean;
} & Links;

export type AddToCartConfig = ProductAddConfig | BundleAddConfig;

/** What can change while the page is open: fresher data (API, live build), the choice, an add running. */
export type AddToCartState = {
  variants: VariantView[];
  /** A bundle's price and availability once fresher than the page's (null: the page's). */
  bundle: { price: string; available: boolean } | null;
  selection: Selection;
  busy: boolean;
};

export type OptionValueView = { value: string; checked: boolean; soldOut: boolean };

export type AddToCartView = {
  /** The chosen variant (product pages); null on bundle pages or when the choice names none. */
  variant: VariantView | null;
  price: string;
  stock: StockLabel;
  available: boolean;
  maxQuantity: number;
  options: { name: string; values: OptionValueView[] }[];
  buttonLabel: string;
};

/** The prefix of the part's element ids and radio names, unique on the page. */
export function addToCartId(config: AddToCartConfig): string {
  return config.kind === 'product' ? `p${config.productId}` : `b${config.bundleId}`;
}

/** What the add button says: what it does, what it is doing, or why it cannot. */
function addLabel(kind: AddToCartConfig['kind'], available: boolean, busy: boolean): string {
  if (busy) return 'Adding…';
  if (!available) return 'Sold out';
  return kind === 'bundle' ? 'Add bundle to cart' : 'Add to cart';
}

/** Everything the part shows for `state`. */
export function addToCartView(config: AddToCartConfig, state: AddToCartState): AddToCartView {
  const { variants, selection } = state;
  if (config.kind === 'bundle') {
    const { price, available } = state.bundle ?? config;
    return {
      variant: null,
      price: formatCurrency(price),
      // A bundle shows only whether it is available, not how many.
      stock: stockLabel(available ? Number.POSITIVE_INFINITY : 0),
      available,
      maxQuantity: MAX_QUANTITY,
      options: [],
      buttonLabel: addLabel('bundle', available, state.busy),
    };
  }
  const { optionNames } = config;
  const variant = findVariant(variants, optionNames, selection);
  const available = variant?.available ?? false;
  const values = optionValues(variants, optionNames);
  return {
    variant,
    price: variant ? formatCurrency(variant.price) : 'Unavailable',
    stock: stockLabel(variant?.stock ?? 0, config.lowStockThreshold),
    available,
    maxQuantity: variant ? quantityLimit(variant.stock, MAX_QUANTITY) : MAX_QUANTITY,
    options: optionNames.map((name) => ({
      name,
      values: (values[name] ?? []).map((value) => ({
        value,
        checked: selection[name] === value,
        soldOut: !isValueAvailable(variants, optionNames, selection, name, value),
      })),
    })),
    buttonLabel: addLabel('product', available, state.busy),
  };
}
