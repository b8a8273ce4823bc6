/**
 * Add to cart for a product (variant choice by options, quantity) or a whole bundle.
 * On view it asks the API for the current prices and availability, so a page prerendered before
 * a price change shows the new price as soon as it hydrates; the cart is priced by the API anyway.
 * When a new build goes live while the page is open, it takes its data from the page's payload of
 * that build (docs/decisions/131-islands-read-the-live-payload.md).
 * A variant's stock at or below the store's threshold reads "Only N left", and the quantity picker
 * stops at the stock (the API refuses more anyway).
 */
import { useEffect, useMemo, useState } from 'react';
import type { AddLinePayload } from '../lib/contract/payloads.ts';
import { browserRequester, getBundle, listProductVariants } from '../lib/api-client/index.ts';
import { variantView, type VariantView } from '../lib/catalog/catalog-card.ts';
import { showVariantImages } from '../lib/catalog/show-variant-images.ts';
import { bundlePayloadData, LIVE_BUILD_EVENT, payloadUrl, productPayloadData } from '../lib/catalog/live-payload.ts';
import { quantityLimit, stockLabel } from '../lib/catalog/stock-label.ts';
import {
  choose,
  findVariant,
  initialSelection,
  isValueAvailable,
  optionValues,
  type Selection,
} from '../lib/catalog/variant-options.ts';
import { itemTitle } from '../lib/item-title.ts';
import { MAX_QUANTITY } from '../lib/contract/limits.ts';
import { formatCurrency } from '../lib/money.ts';
import { addLine } from '../stores/cart-add.ts';
import { ADD_TO_CART_TOAST_MS, notify, notifyError } from '../stores/notifications.ts';
import { useHydrated } from './use-hydrated.ts';

type Common = {
  slug: string;
  cartHref: string;
  homeHref: string;
};

export type ProductAddProps = {
  kind: 'product';
  productId: string;
  name: string;
  optionNames: string[];
  variants: VariantView[];
  /** The store's `lowStockThreshold`; the default threshold when absent. */
  lowStockThreshold?: number | undefined;
} & Common;

export type BundleAddProps = {
  kind: 'bundle';
  bundleId: string;
  name: string;
  price: string;
  available: boolean;
} & Common;

export type AddToCartProps = ProductAddProps | BundleAddProps;

/** What the add button says: what it does, what it is doing, or why it cannot. */
function addLabel(kind: AddToCartProps['kind'], available: boolean, busy: boolean): string {
  if (busy) return 'Adding…';
  if (!available) return 'Sold out';
  return kind === 'bundle' ? 'Add bundle to cart' : 'Add to cart';
}

function clampQuantity(value: number, max: number): number {
  return Number.isInteger(value) ? Math.min(max, Math.max(1, value)) : 1;
}

/** Fresh variants (product) or price and availability (bundle) from the API, once per view. */
/** A bundle has no options; one array, so memoised values keep their identity across renders. */
const NO_OPTIONS: string[] = [];

function useRevalidated(props: AddToCartProps) {
  const [variants, setVariants] = useState(props.kind === 'product' ? props.variants : []);
  const [bundle, setBundle] = useState(
    props.kind === 'bundle' ? { price: props.price, available: props.available } : null,
  );
  const [fresh, setFresh] = useState(false);
  const key = props.kind === 'product' ? props.productId : props.bundleId;
  useEffect(() => {
    let live = true;
    const request = browserRequester();
    const load =
      props.kind === 'product'
        ? listProductVariants(request, props.slug, key).then((answer) => {
            if (live) setVariants(answer.data.map(variantView));
          })
        : getBundle(request, props.slug, key).then((answer) => {
            if (live) setBundle({ price: answer.data.attributes.price, available: answer.data.attributes.available });
          });
    // A failed refresh keeps the built values: the cart still prices from the API.
    load.then(() => live && setFresh(true)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [props.kind, props.slug, key]);

  // The build poller announces a publish (checked when the tab is viewed again): read this page's
  // payload of the new live build. A missing or odd payload keeps what is shown.
  useEffect(() => {
    let live = true;
    const onLiveBuild = (event: Event) => {
      const { id } = (event as CustomEvent<{ id: string }>).detail;
      fetch(payloadUrl(location.pathname, id))
        .then((response) => (response.ok ? response.json() : null))
        .then((body: unknown) => {
          if (!live) return;
          if (props.kind === 'product') {
            const data = productPayloadData(body);
            if (data) setVariants(data.variants);
          } else {
            const data = bundlePayloadData(body);
            if (data) setBundle(data);
          }
        })
        .catch(() => undefined);
    };
    addEventListener(LIVE_BUILD_EVENT, onLiveBuild);
    return () => {
      live = false;
      removeEventListener(LIVE_BUILD_EVENT, onLiveBuild);
    };
  }, [props.kind, key]);
  return { variants, bundle, fresh };
}

export default function AddToCart(props: AddToCartProps) {
  const { variants, bundle, fresh } = useRevalidated(props);
  const optionNames = props.kind === 'product' ? props.optionNames : NO_OPTIONS;
  const [selection, setSelection] = useState<Selection>(() => initialSelection(variants));
  // What the shopper typed: kept as typed (an empty field included) and clamped on blur and on add.
  const [quantityText, setQuantityText] = useState('1');
  const [busy, setBusy] = useState(false);

  const values = useMemo(() => optionValues(variants, optionNames), [variants, optionNames]);
  const variant = props.kind === 'product' ? findVariant(variants, optionNames, selection) : null;

  // Revalidation may drop the chosen variant (deleted or renamed options): start over from a valid one.
  // Adjusted while rendering, not in an effect, so no frame shows the stale choice (React's "adjusting state when a prop changes").
  const [seenVariants, setSeenVariants] = useState(variants);
  if (seenVariants !== variants) {
    setSeenVariants(variants);
    if (props.kind === 'product' && variants.length > 0 && !findVariant(variants, optionNames, selection))
      setSelection(initialSelection(variants));
  }

  const price = props.kind === 'product' ? (variant?.price ?? null) : bundle!.price;
  const available = props.kind === 'product' ? (variant?.available ?? false) : bundle!.available;
  // A bundle shows only whether it is available, not how many.
  const label =
    props.kind === 'product'
      ? stockLabel(variant?.stock ?? 0, props.lowStockThreshold)
      : stockLabel(available ? Number.POSITIVE_INFINITY : 0);
  const maxQuantity = props.kind === 'product' && variant ? quantityLimit(variant.stock, MAX_QUANTITY) : MAX_QUANTITY;

  // The variant the URL names (`?variant=ID`): read once hydrated, since the prerendered page cannot
  // know the query and the first render must match it; the shopper's choices write it back (`choosePart`).
  const hydrated = useHydrated();
  const [urlRead, setUrlRead] = useState(false);
  if (hydrated && !urlRead) {
    setUrlRead(true);
    const requested = props.kind === 'product' ? new URLSearchParams(location.search).get('variant') : null;
    if (requested) setSelection(initialSelection(variants, requested));
  }

  const choosePart = (name: string, value: string) => {
    const next = choose(variants, optionNames, selection, name, value);
    setSelection(next);
    const chosen = findVariant(variants, optionNames, next);
    if (!chosen) return;
    const url = new URL(location.href);
    url.searchParams.set('variant', chosen.id);
    history.replaceState(history.state, '', url);
    showVariantImages(chosen.id);
  };

  // Another variant, or fresher stock, may allow fewer than the quantity already chosen.
  const [seenMax, setSeenMax] = useState(maxQuantity);
  if (seenMax !== maxQuantity) {
    setSeenMax(maxQuantity);
    if (Number(quantityText) > maxQuantity) setQuantityText(String(maxQuantity));
  }
  const clampTyped = () => {
    const clamped = clampQuantity(Number(quantityText), maxQuantity);
    setQuantityText(String(clamped));
    return clamped;
  };

  const add = async () => {
    const quantity = clampTyped();
    let payload: AddLinePayload;
    if (props.kind === 'product') {
      if (!variant) return;
      payload = { cart_line_item: { product_variant_id: variant.id, quantity } };
    } else {
      payload = { cart_line_item: { bundle_id: props.bundleId, quantity } };
    }
    setBusy(true);
    try {
      await addLine(payload, props.slug);
      const itemName =
        props.kind === 'product' && variant ? itemTitle({ name: props.name, variant_name: variant.name }) : props.name;
      // The layout's toaster draws it (a shared nanostore, like the header count).
      notify({
        kind: 'success',
        title: 'Added to cart',
        message: itemName,
        durationMs: ADD_TO_CART_TOAST_MS,
        actions: [
          { label: 'Checkout', href: props.cartHref },
          { label: 'Continue Shopping', href: props.homeHref },
        ],
      });
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };

  const id = props.kind === 'product' ? `p${props.productId}` : `b${props.bundleId}`;
  return (
    <div className="add-to-cart" data-fresh={fresh ? '' : undefined}>
      <p className="add-to-cart__price" aria-live="polite">
        {price === null ? 'Unavailable' : formatCurrency(price)}
        <span className={`stock stock--${label.kind}`}>{label.text}</span>
      </p>
      {optionNames.map((name) => (
        <fieldset key={name} className="option">
          <legend>{name}</legend>
          <div className="option__values">
            {(values[name] ?? []).map((value) => {
              const soldOut = !isValueAvailable(variants, optionNames, selection, name, value);
              return (
                <label key={value} className="option__value" data-soldout={soldOut ? '' : undefined}>
                  <input
                    type="radio"
                    name={`${id}-${name}`}
                    value={value}
                    checked={selection[name] === value}
                    onChange={() => choosePart(name, value)}
                  />
                  <span>{value}</span>
                  {soldOut && <span className="sr-only"> (sold out)</span>}
                </label>
              );
            })}
          </div>
        </fieldset>
      ))}
      <div className="add-to-cart__row">
        {/* Not the forms library's Field: it would cost this page ~0.7 KB gzip of its 80 KB budget. The
            wiring is the same: a label for the control, the limit as its description. */}
        <div className="add-to-cart__quantity">
          <label htmlFor={`${id}-quantity`}>Quantity</label>
          <input
            id={`${id}-quantity`}
            type="number"
            inputMode="numeric"
            min={1}
            max={maxQuantity}
            value={quantityText}
            disabled={!available}
            aria-describedby={available ? `${id}-quantity-limit` : undefined}
            onChange={(event) => setQuantityText(event.target.value)}
            onBlur={clampTyped}
          />
          {available ? (
            <p id={`${id}-quantity-limit`} className="add-to-cart__limit">
              Up to {maxQuantity}
            </p>
          ) : null}
        </div>
        <button
          type="button"
          className="button add-to-cart__button"
          // While adding it is aria-disabled, not disabled: a disabled button would drop the keyboard focus.
          disabled={!available}
          aria-disabled={busy || undefined}
          aria-busy={busy}
          onClick={() => {
            if (!busy) void add();
          }}
        >
          {addLabel(props.kind, available, busy)}
        </button>
      </div>
    </div>
  );
}
