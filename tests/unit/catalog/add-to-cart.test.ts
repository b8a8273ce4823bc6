// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { mountAddToCart } from '../../../src/scripts/add-to-cart.ts';
import {
  addToCartId,
  addToCartView,
  type AddToCartConfig,
  type ProductAddConfig,
} from '../../../src/lib/catalog/add-to-cart-view.ts';
import { LIVE_BUILD_EVENT } from '../../../src/lib/catalog/live-payload.ts';
import { initialSelection } from '../../../src/lib/catalog/variant-options.ts';
import type { Cart, ProductVariant } from '../../../src/lib/contract/answers.ts';
import type { VariantView } from '../../../src/lib/catalog/catalog-card.ts';
import { $cart, $cartCount } from '../../../src/stores/cart.ts';
import { emptyCart } from '../../../src/stores/cart-core.ts';
import { $notifications } from '../../../src/stores/notifications.ts';
import { variant } from './fixtures/stub-catalog-api.ts';

const built: VariantView[] = [
  { id: '11', name: 'S', options: { Size: 'S' }, price: '20.00', available: true, stock: 40 },
  { id: '12', name: 'M', options: { Size: 'M' }, price: '20.00', available: true, stock: 40 },
];

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function cartWith(size: number): Cart {
  return { ...emptyCart(), cartLineItemsSize: size, requiresPayment: true };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The markup src/components/catalog/AddToCart.astro renders for `config`, from the same view. */
function serverMarkup(config: AddToCartConfig): string {
  const variants = config.kind === 'product' ? config.variants : [];
  const view = addToCartView(config, { variants, bundle: null, selection: initialSelection(variants), busy: false });
  const id = addToCartId(config);
  const options = view.options.map(
    (option) =>
      `<fieldset class="option"><legend>${escape(option.name)}</legend><div class="option__values">${option.values
        .map(
          (v) =>
            `<label class="option__value"${v.soldOut ? ' data-soldout' : ''}><input type="radio" name="${escape(`${id}-${option.name}`)}" value="${escape(v.value)}"${v.checked ? ' checked' : ''}><span>${escape(v.value)}</span>${v.soldOut ? '<span class="sr-only"> (sold out)</span>' : ''}</label>`,
        )
        .join('')}</div></fieldset>`,
  );
  return `<div class="add-to-cart" data-add-to-cart>
    <p class="add-to-cart__price" aria-live="polite"><span data-price>${view.price}</span><span class="stock stock--${view.stock.kind}">${view.stock.text}</span></p>
    ${options.join('')}
    <div class="add-to-cart__row"><div class="add-to-cart__quantity">
      <label for="${id}-quantity">Quantity</label>
      <input id="${id}-quantity" type="number" min="1" max="${view.maxQuantity}" value="1"${view.available ? '' : ' disabled'}>
      <p id="${id}-quantity-limit" class="add-to-cart__limit"${view.available ? '' : ' hidden'}>Up to ${view.maxQuantity}</p>
    </div>
    <button type="button" class="button add-to-cart__button"${view.available ? '' : ' disabled'} aria-busy="false">${view.buttonLabel}</button></div>
    <script type="application/json">${JSON.stringify(config)}</script>
  </div>`;
}

/** Renders the server's markup and makes it live, as the page's script does. */
function mount(config: AddToCartConfig): HTMLElement {
  document.body.innerHTML = serverMarkup(config);
  const root = document.querySelector<HTMLElement>('[data-add-to-cart]')!;
  mountAddToCart(root);
  return root;
}

const fresh = (root: HTMLElement) => vi.waitFor(() => expect(root.hasAttribute('data-fresh')).toBe(true));
const radio = (value: string) => document.querySelector<HTMLInputElement>(`input[type="radio"][value="${value}"]`)!;
const quantityInput = () => document.querySelector<HTMLInputElement>('input[type="number"]')!;
const button = () => document.querySelector<HTMLButtonElement>('.add-to-cart__button')!;
const priceText = () => document.querySelector('.add-to-cart__price')!.textContent;
const stockText = () => document.querySelector('.stock')!.textContent;
const add = async () => {
  button().click();
  await vi.waitFor(() => expect(button().getAttribute('aria-busy')).toBe('false'));
};
const typeQuantity = (value: string) => {
  quantityInput().value = value;
  quantityInput().dispatchEvent(new Event('input', { bubbles: true }));
};

let variants: ProductVariant[];
const posted: unknown[] = [];

beforeEach(() => {
  // A choice writes ?variant=ID into the page's URL; each test opens a page without one.
  history.replaceState(null, '', '/acme/product/1');
  variants = [variant('11', '1', { Size: 'S' }, '25.00'), variant('12', '1', { Size: 'M' }, '25.00', false)];
  posted.length = 0;
  $cart.set(cartWith(0));
  $notifications.set([]);
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url.endsWith('/products/1/product_variants')) return json({ data: variants });
    if (url.endsWith('/cart/cart_line_items') && init?.method === 'POST') {
      posted.push(JSON.parse(String(init.body)));
      return json(cartWith(3));
    }
    return json({ message: 'Record not found' }, 404);
  });
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

const product: ProductAddConfig = {
  kind: 'product',
  slug: 'acme',
  productId: '1',
  name: 'Tee',
  optionNames: ['Size'],
  variants: built,
  cartHref: '/acme/cart',
  homeHref: '/acme',
};

test('a page built with an old price shows the API’s current price and stock once its script runs', async () => {
  const root = mount(product);
  expect(priceText()).toContain('$20.00');
  await fresh(root);
  expect(priceText()).toContain('$25.00');
  expect(radio('M').closest('label')!.textContent).toBe('M (sold out)');
  radio('M').click();
  expect(stockText()).toBe('Sold out');
  expect(button().textContent).toBe('Sold out');
  expect(button().disabled).toBe(true);
  expect(quantityInput().disabled).toBe(true);
  expect(quantityInput().hasAttribute('aria-describedby')).toBe(false);
});

test('choosing a variant keeps it in the URL, and a page opened with ?variant=ID starts on it', async () => {
  await fresh(mount(product));
  radio('M').click();
  expect(location.search).toBe('?variant=12');

  await fresh(mount(product));
  expect(radio('M').checked).toBe(true);
  expect(radio('S').checked).toBe(false);
});

test('adding sends the chosen variant and quantity, updates the shared cart count and shows the 2500 ms toast', async () => {
  await fresh(mount(product));
  typeQuantity('3');
  await add();
  expect(posted).toEqual([{ cart_line_item: { product_variant_id: '11', quantity: 3 } }]);
  expect($cartCount.get()).toBe(3);
  const [toast] = $notifications.get();
  expect(toast).toMatchObject({
    title: 'Added to cart',
    message: 'Tee (S)',
    durationMs: 2500,
    actions: [
      { label: 'Checkout', href: '/acme/cart' },
      { label: 'Continue Shopping', href: '/acme' },
    ],
  });
});

test('while adding, the button says so and is aria-disabled, keeping the focus; a second click adds nothing', async () => {
  let answer: (response: Response) => void = () => undefined;
  await fresh(mount(product));
  vi.stubGlobal('fetch', (_url: string, init?: RequestInit) => {
    posted.push(JSON.parse(String(init?.body)));
    return new Promise<Response>((resolve) => (answer = resolve));
  });
  button().click();
  expect(button().textContent).toBe('Adding…');
  expect(button().getAttribute('aria-disabled')).toBe('true');
  expect(button().getAttribute('aria-busy')).toBe('true');
  expect(button().disabled).toBe(false);
  button().click();
  answer(json(cartWith(1)));
  await vi.waitFor(() => expect(button().textContent).toBe('Add to cart'));
  expect(button().hasAttribute('aria-disabled')).toBe(false);
  expect(posted).toHaveLength(1);
});

test('a whole bundle is added by its id', async () => {
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url.endsWith('/bundles/7'))
      return json({ data: { id: '7', type: 'bundle', attributes: { price: '31.00', available: true } } });
    posted.push(JSON.parse(String(init?.body)));
    return json(cartWith(1));
  });
  const root = mount({
    kind: 'bundle',
    slug: 'acme',
    bundleId: '7',
    name: 'Kit',
    price: '29.50',
    available: true,
    cartHref: '/acme/cart',
    homeHref: '/acme',
  });
  expect(priceText()).toContain('$29.50');
  await fresh(root);
  expect(priceText()).toContain('$31.00');
  await add();
  expect(posted).toEqual([{ cart_line_item: { bundle_id: '7', quantity: 1 } }]);
  expect($cartCount.get()).toBe(1);
  expect($notifications.get()[0]).toMatchObject({ title: 'Added to cart', message: 'Kit' });
});

test('a refused add shows the spec’s error notification and leaves the cart alone', async () => {
  vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
    if (init?.method === 'POST')
      return json({ message: 'Not enough stock', errors: { quantity: ['Only 2 left in stock.'] } }, 422);
    return json({ data: variants });
  });
  await fresh(mount(product));
  await add();
  expect($cartCount.get()).toBe(0);
  expect($notifications.get()[0]).toMatchObject({
    kind: 'error',
    title: 'Validation error occurred',
    message: 'Only 2 left in stock.',
  });
});

const withStock = (v: ProductVariant, stock: number): ProductVariant => ({
  ...v,
  attributes: { ...v.attributes, stock, available: stock > 0 },
});

test('a variant at or below the store’s threshold (5 by default) says “Only N left” and the picker stops at its stock', async () => {
  variants = [
    withStock(variant('11', '1', { Size: 'S' }, '25.00'), 3),
    withStock(variant('12', '1', { Size: 'M' }, '25.00'), 40),
  ];
  const root = mount(product);
  expect(stockText()).toBe('In stock');
  await fresh(root);
  expect(stockText()).toBe('Only 3 left');
  expect(quantityInput().max).toBe('3');
  // Typed freely, clamped when the field is left.
  typeQuantity('10');
  expect(quantityInput().value).toBe('10');
  quantityInput().dispatchEvent(new Event('blur'));
  expect(quantityInput().value).toBe('3');
  radio('M').click();
  expect(stockText()).toBe('In stock');
  expect(quantityInput().max).toBe('40');
  expect(document.querySelector('.add-to-cart__limit')!.textContent).toBe('Up to 40');
});

test('the threshold is the store’s: above it, or with 0, the variant is simply in stock', async () => {
  variants = [
    withStock(variant('11', '1', { Size: 'S' }, '25.00'), 3),
    withStock(variant('12', '1', { Size: 'M' }, '25.00'), 1),
  ];
  await fresh(mount({ ...product, lowStockThreshold: 2 }));
  expect(stockText()).toBe('In stock');
  radio('M').click();
  expect(stockText()).toBe('Only 1 left');
  await fresh(mount({ ...product, lowStockThreshold: 0 }));
  radio('M').click();
  expect(stockText()).toBe('In stock');
});

test('choosing a variant with less stock than the chosen quantity brings the quantity down to it', async () => {
  variants = [
    withStock(variant('11', '1', { Size: 'S' }, '25.00'), 40),
    withStock(variant('12', '1', { Size: 'M' }, '25.00'), 2),
  ];
  await fresh(mount(product));
  typeQuantity('10');
  radio('M').click();
  expect(quantityInput().value).toBe('2');
  await add();
  expect(posted).toEqual([{ cart_line_item: { product_variant_id: '12', quantity: 2 } }]);
});

test('fresher variants with other values redraw the chips, and a choice they drop starts over on a valid one', async () => {
  variants = [variant('13', '1', { Size: 'L' }, '25.00'), variant('14', '1', { Size: 'XL' }, '27.00')];
  const root = mount(product);
  await fresh(root);
  expect([...root.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map((r) => r.value)).toEqual(['L', 'XL']);
  expect(radio('L').checked).toBe(true);
  radio('XL').click();
  expect(priceText()).toContain('$27.00');
  expect(location.search).toBe('?variant=14');
});

test('a new live build’s payload replaces the variants shown', async () => {
  const root = mount(product);
  await fresh(root);
  vi.stubGlobal('fetch', async (url: string) =>
    url.startsWith('/acme/product/1/_payload.json?b2')
      ? json({ page: 'product', data: { variants: [{ ...built[0], price: '19.00' }, built[1]] } })
      : json({}, 404),
  );
  dispatchEvent(new CustomEvent(LIVE_BUILD_EVENT, { detail: { id: 'b2' } }));
  await vi.waitFor(() => expect(priceText()).toContain('$19.00'));
});
