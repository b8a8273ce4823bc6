/**
 * The product and bundle pages' add to cart, plain TypeScript on the shared nanostores
 * (docs/decisions/194-product-pages-without-react.md). The server rendered the part
 * (src/components/catalog/AddToCart.astro) from the same view this script redraws from its state
 * (lib/catalog/add-to-cart-view.ts): the variant choice by options (kept in `?variant=`, with the
 * variant's images, docs/decisions/193-variant-images.md), the quantity within the stock, the add and
 * its toast. On view it asks the API for the current prices and availability, so a page prerendered
 * before a price change shows the new price; when a new build goes live while the page is open, it
 * takes its data from the page's payload of that build (docs/decisions/131-islands-read-the-live-payload.md).
 */
import { browserRequester, getBundle, listProductVariants } from '../lib/api-client/index.ts';
import {
  addToCartId,
  addToCartView,
  type AddToCartConfig,
  type AddToCartState,
  type OptionValueView,
} from '../lib/catalog/add-to-cart-view.ts';
import { variantView } from '../lib/catalog/catalog-card.ts';
import { bundlePayloadData, LIVE_BUILD_EVENT, payloadUrl, productPayloadData } from '../lib/catalog/live-payload.ts';
import { showVariantImages } from '../lib/catalog/show-variant-images.ts';
import { choose, findVariant, initialSelection } from '../lib/catalog/variant-options.ts';
import type { AddLinePayload } from '../lib/contract/payloads.ts';
import { itemTitle } from '../lib/item-title.ts';
import { addLine } from '../stores/cart-add.ts';
import { ADD_TO_CART_TOAST_MS, notify, notifyError } from '../stores/notifications.ts';

function clampQuantity(value: number, max: number): number {
  return Number.isInteger(value) ? Math.min(max, Math.max(1, value)) : 1;
}

/** One option chip, as the server renders it: a radio named `{part id}-{option}`. */
function valueLabel(radioName: string, value: string): HTMLLabelElement {
  const label = document.createElement('label');
  label.className = 'option__value';
  const radio = document.createElement('input');
  radio.type = 'radio';
  radio.name = radioName;
  radio.value = value;
  const text = document.createElement('span');
  text.textContent = value;
  label.append(radio, text);
  return label;
}

/** An option's chips for its values: rebuilt only when fresher data brings other values. */
function drawOption(fieldset: Element, radioName: string, values: readonly OptionValueView[]): void {
  const box = fieldset.querySelector('.option__values');
  if (!box) return;
  const shown = [...box.querySelectorAll('input')].map((radio) => radio.value);
  if (shown.join('\n') !== values.map((v) => v.value).join('\n'))
    box.replaceChildren(...values.map((v) => valueLabel(radioName, v.value)));
  values.forEach((v, i) => {
    const label = box.children[i]!;
    label.querySelector('input')!.checked = v.checked;
    label.toggleAttribute('data-soldout', v.soldOut);
    const note = label.querySelector('.sr-only');
    if (v.soldOut && !note) {
      const added = document.createElement('span');
      added.className = 'sr-only';
      added.textContent = ' (sold out)';
      label.append(added);
    } else if (!v.soldOut) note?.remove();
  });
}

/** Makes one server-rendered part (`[data-add-to-cart]`) live; a part already live is left alone. */
export function mountAddToCart(root: HTMLElement): void {
  const configText = root.querySelector('script[type="application/json"]')?.textContent;
  if (!configText || root.hasAttribute('data-mounted')) return;
  root.setAttribute('data-mounted', '');
  const config = JSON.parse(configText) as AddToCartConfig;
  const id = addToCartId(config);
  const optionNames = config.kind === 'product' ? config.optionNames : [];
  const variants = config.kind === 'product' ? config.variants : [];
  // The variant the URL names: a snapshot could not render it, so the choice starts on it here.
  const requested = config.kind === 'product' ? new URLSearchParams(location.search).get('variant') : null;
  const state: AddToCartState = {
    variants,
    bundle: null,
    selection: initialSelection(variants, requested),
    busy: false,
  };

  const price = root.querySelector<HTMLElement>('[data-price]')!;
  const stock = root.querySelector<HTMLElement>('.stock')!;
  const fieldsets = root.querySelectorAll('fieldset');
  const quantity = root.querySelector<HTMLInputElement>('input[type="number"]')!;
  const limit = root.querySelector<HTMLElement>('.add-to-cart__limit')!;
  const button = root.querySelector<HTMLButtonElement>('.add-to-cart__button')!;
  let shownMax = Number(quantity.max);

  const draw = () => {
    const view = addToCartView(config, state);
    price.textContent = view.price;
    stock.className = `stock stock--${view.stock.kind}`;
    stock.textContent = view.stock.text;
    view.options.forEach((option, i) => {
      if (fieldsets[i]) drawOption(fieldsets[i], `${id}-${option.name}`, option.values);
    });
    // Another variant, or fresher stock, may allow fewer than the quantity already chosen.
    if (view.maxQuantity !== shownMax && Number(quantity.value) > view.maxQuantity)
      quantity.value = String(view.maxQuantity);
    shownMax = view.maxQuantity;
    quantity.max = String(view.maxQuantity);
    quantity.disabled = !view.available;
    if (view.available) quantity.setAttribute('aria-describedby', limit.id);
    else quantity.removeAttribute('aria-describedby');
    limit.hidden = !view.available;
    limit.textContent = `Up to ${view.maxQuantity}`;
    button.textContent = view.buttonLabel;
    button.disabled = !view.available;
    // While adding it is aria-disabled, not disabled: a disabled button would drop the keyboard focus.
    if (state.busy) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
    button.setAttribute('aria-busy', String(state.busy));
    return view;
  };

  /** Fresher data; it may drop the chosen variant (deleted or renamed options): start over from a valid one. */
  const update = (fresh: Partial<Pick<AddToCartState, 'variants' | 'bundle'>>) => {
    Object.assign(state, fresh);
    if (state.variants.length > 0 && !findVariant(state.variants, optionNames, state.selection))
      state.selection = initialSelection(state.variants);
    draw();
  };

  const clampTyped = () => {
    const clamped = clampQuantity(Number(quantity.value), shownMax);
    quantity.value = String(clamped);
    return clamped;
  };

  const add = async () => {
    const count = clampTyped();
    const { variant } = addToCartView(config, state);
    let payload: AddLinePayload;
    if (config.kind === 'product') {
      if (!variant) return;
      payload = { cart_line_item: { product_variant_id: variant.id, quantity: count } };
    } else {
      payload = { cart_line_item: { bundle_id: config.bundleId, quantity: count } };
    }
    state.busy = true;
    draw();
    try {
      await addLine(payload, config.slug);
      // The layout's toaster draws it (a shared nanostore, like the header count).
      notify({
        kind: 'success',
        title: 'Added to cart',
        message: variant ? itemTitle({ name: config.name, variant_name: variant.name }) : config.name,
        durationMs: ADD_TO_CART_TOAST_MS,
        actions: [
          { label: 'Checkout', href: config.cartHref },
          { label: 'Continue Shopping', href: config.homeHref },
        ],
      });
    } catch (error) {
      notifyError(error);
    } finally {
      state.busy = false;
      draw();
    }
  };

  root.addEventListener('change', (event) => {
    const radio = event.target as HTMLInputElement;
    if (radio.type !== 'radio') return;
    state.selection = choose(
      state.variants,
      optionNames,
      state.selection,
      radio.name.slice(id.length + 1),
      radio.value,
    );
    const { variant } = draw();
    if (!variant) return;
    const url = new URL(location.href);
    url.searchParams.set('variant', variant.id);
    history.replaceState(history.state, '', url);
    showVariantImages(variant.id);
  });
  quantity.addEventListener('blur', clampTyped);
  button.addEventListener('click', () => {
    if (!state.busy) void add();
  });

  draw();
  const request = browserRequester();
  const load =
    config.kind === 'product'
      ? listProductVariants(request, config.slug, config.productId).then((answer) =>
          update({ variants: answer.data.map(variantView) }),
        )
      : getBundle(request, config.slug, config.bundleId).then(({ data }) =>
          update({ bundle: { price: data.attributes.price, available: data.attributes.available } }),
        );
  // A failed refresh keeps the built values: the cart still prices from the API.
  load.then(() => root.setAttribute('data-fresh', '')).catch(() => undefined);

  // The build poller announces a publish (checked when the tab is viewed again): read this page's
  // payload of the new live build. A missing or odd payload keeps what is shown.
  addEventListener(LIVE_BUILD_EVENT, (event) => {
    const { id: buildId } = (event as CustomEvent<{ id: string }>).detail;
    fetch(payloadUrl(location.pathname, buildId))
      .then((response) => (response.ok ? response.json() : null))
      .then((body: unknown) => {
        if (config.kind === 'product') {
          const data = productPayloadData(body);
          if (data) update({ variants: data.variants });
        } else {
          const data = bundlePayloadData(body);
          if (data) update({ bundle: data });
        }
      })
      .catch(() => undefined);
  });
}

document.querySelectorAll<HTMLElement>('[data-add-to-cart]').forEach(mountAddToCart);
