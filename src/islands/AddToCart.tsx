/**
 * Add to cart for a product (variant choice by options, quantity) or a whole bundle.
 * On view it asks the API for the current prices and availability, so a page prerendered before
 * a price change shows the new price as soon as it hydrates; the cart is priced by the API anyway.
 */
import { useEffect, useMemo, useState } from 'react';
import type { AddLinePayload } from '../lib/api-types.ts';
import { browserRequester } from '../lib/browser-request.ts';
import { getBundle, listProductVariants } from '../lib/catalog/catalog-requests.ts';
import { variantView, type VariantView } from '../lib/catalog/catalog-card.ts';
import { choose, findVariant, initialSelection, isValueAvailable, optionValues, type Selection } from '../lib/catalog/variant-options.ts';
import { formatCurrency } from '../lib/money.ts';
import { addLine } from '../stores/cart-add.ts';
import { ADD_TO_CART_TOAST_MS, notify, notifyError } from '../stores/notifications.ts';

export const MAX_QUANTITY = 99;

interface Common {
  slug: string;
  cartHref: string;
  homeHref: string;
}

export interface ProductAddProps extends Common {
  kind: 'product';
  productId: string;
  name: string;
  optionNames: string[];
  variants: VariantView[];
}

export interface BundleAddProps extends Common {
  kind: 'bundle';
  bundleId: string;
  name: string;
  price: string;
  available: boolean;
}

export type AddToCartProps = ProductAddProps | BundleAddProps;

function clampQuantity(value: number): number {
  return Number.isInteger(value) ? Math.min(MAX_QUANTITY, Math.max(1, value)) : 1;
}

/** Fresh variants (product) or price and availability (bundle) from the API, once per view. */
function useRevalidated(props: AddToCartProps) {
  const [variants, setVariants] = useState(props.kind === 'product' ? props.variants : []);
  const [bundle, setBundle] = useState(props.kind === 'bundle' ? { price: props.price, available: props.available } : null);
  const [fresh, setFresh] = useState(false);
  const key = props.kind === 'product' ? props.productId : props.bundleId;
  useEffect(() => {
    let live = true;
    const request = browserRequester();
    const load =
      props.kind === 'product'
        ? listProductVariants(request, props.slug, props.productId).then((answer) => {
            if (live) setVariants(answer.data.map(variantView));
          })
        : getBundle(request, props.slug, props.bundleId).then((answer) => {
            if (live) setBundle({ price: answer.data.attributes.price, available: answer.data.attributes.available });
          });
    // A failed refresh keeps the built values: the cart still prices from the API.
    load.then(() => live && setFresh(true)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [props.kind, props.slug, key]);
  return { variants, bundle, fresh };
}

export default function AddToCart(props: AddToCartProps) {
  const { variants, bundle, fresh } = useRevalidated(props);
  const optionNames = props.kind === 'product' ? props.optionNames : [];
  const [selection, setSelection] = useState<Selection>(() => initialSelection(variants));
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);

  const values = useMemo(() => optionValues(variants, optionNames), [variants, optionNames]);
  const variant = props.kind === 'product' ? findVariant(variants, optionNames, selection) : null;

  // Revalidation may drop the chosen variant (deleted or renamed options): start over from a valid one.
  useEffect(() => {
    if (props.kind === 'product' && variants.length > 0 && !findVariant(variants, optionNames, selection)) setSelection(initialSelection(variants));
  }, [variants]);

  const price = props.kind === 'product' ? variant?.price ?? null : bundle!.price;
  const available = props.kind === 'product' ? variant?.available ?? false : bundle!.available;

  const add = async () => {
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
      const itemName = props.kind === 'product' && variant && optionNames.length > 0 ? `${props.name} (${variant.name})` : props.name;
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
        <span className={available ? 'stock stock--in' : 'stock stock--out'}>{available ? 'In stock' : 'Sold out'}</span>
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
                    onChange={() => setSelection(choose(variants, optionNames, selection, name, value))}
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
        <label className="add-to-cart__quantity">
          <span>Quantity</span>
          <input
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_QUANTITY}
            value={quantity}
            onChange={(event) => setQuantity(clampQuantity(Number(event.target.value)))}
          />
        </label>
        <button type="button" className="button add-to-cart__button" disabled={!available || busy} aria-busy={busy} onClick={add}>
          {props.kind === 'bundle' ? 'Add bundle to cart' : 'Add to cart'}
        </button>
      </div>
    </div>
  );
}
