import type {
  Bundle,
  Cart,
  CheckoutAnswer,
  Many,
  Order,
  Product,
  ProductVariant,
} from '../../src/lib/contract/answers.ts';

/** What the bench needs from a running demo store: ids to visit and carts to read and change. */
export type StoreFixtures = {
  slug: string;
  productId: string;
  bundleId: string;
  /** A variant with stock for many adds. */
  variantId: string;
  /** A cart holding one line of `variantId`. */
  cartToken: string;
  /** An order's uuid for the order-confirmation page (null when checkout failed). */
  orderId: string | null;
};

import { TEST_CARDS } from '../../src/server/payments/test-processor.ts';
import { newBenchCartToken } from './bench-env.ts';

/** A new shopper's cart token, signed with the key the bench gives its storefronts. */
export const newToken = newBenchCartToken;

/** One API call as a shopper's browser makes it; answers the status and the body's text. */
export async function send(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL(`/api/${path}`, base), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { 'recipient-token': token } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

async function call<T>(base: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const { status, text } = await send(base, method, path, body, token);
  if (status < 200 || status > 299) throw new Error(`${method} ${path} answered ${status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Adds one line of a variant to the cart of `token`; answers the cart. */
export const addLine = (base: string, slug: string, variantId: string, token: string): Promise<Cart> =>
  call<Cart>(
    base,
    'POST',
    `store_front/${slug}/cart/cart_line_items`,
    { cart_line_item: { product_variant_id: variantId, quantity: 1 } },
    token,
  );

/** A shipping address the demo stores deliver to. */
export const BENCH_ADDRESS = {
  first_name: 'Bench',
  last_name: 'Mark',
  email: 'bench@example.com',
  address_line1: '1 Main St',
  address_line2: '',
  city: 'Austin',
  country: 'US',
  state: 'TX',
  zip: '78701',
  phone: '',
};

/** A test-processor card (src/server/payments/test-processor.ts) with a far expiry. */
export const benchCard = (number: string) => ({ number, exp_month: 12, exp_year: 2040, cvc: '123' });

/** Checks out a cart with the test processor's success card; answers the order's uuid. */
async function placeOrder(base: string, slug: string, variantId: string): Promise<string> {
  const token = newToken();
  await addLine(base, slug, variantId, token);
  await call(base, 'PUT', `store_front/${slug}/cart`, { cart: BENCH_ADDRESS }, token);
  const checkout = await call<CheckoutAnswer>(base, 'POST', `store_front/${slug}/cart/checkout`, {}, token);
  const intent = checkout.paymentIntent;
  if (intent) {
    await call(base, 'POST', `test_processor/payment_intents/${intent.id}/confirm`, {
      card: benchCard(TEST_CARDS.success),
    });
  }
  const order = await call<Order>(
    base,
    'POST',
    `store_front/${slug}/cart/finalize`,
    intent ? { payment_intent_id: intent.id } : {},
    token,
  );
  return order.orderDetails.id;
}

/** Finds a product, a bundle and a well-stocked variant of a store, and makes a cart and an order. */
export async function storeFixtures(base: string, slug = 'acme'): Promise<StoreFixtures> {
  const products = await call<Many<Product>>(base, 'GET', `store_front/${slug}/products?per_page=50`);
  const bundles = await call<Many<Bundle>>(base, 'GET', `store_front/${slug}/bundles?per_page=50`);
  let variantId: string | null = null;
  let productId: string | null = null;
  for (const product of products.data) {
    const variants = await call<Many<ProductVariant>>(
      base,
      'GET',
      `store_front/${slug}/products/${product.id}/product_variants`,
    );
    const stocked = variants.data.find((v) => v.attributes.stock >= 10);
    if (stocked) {
      variantId = stocked.id;
      productId = product.id;
      break;
    }
  }
  if (!variantId || !productId) throw new Error(`Store ${slug} has no variant with stock ≥ 10`);
  const cartToken = newToken();
  await addLine(base, slug, variantId, cartToken);
  let orderId: string | null = null;
  try {
    orderId = await placeOrder(base, slug, variantId);
  } catch (error) {
    console.warn(`Could not place a bench order (the order-confirmation page is skipped): ${(error as Error).message}`);
  }
  return { slug, productId: products.data[0]!.id, bundleId: bundles.data[0]?.id ?? '', variantId, cartToken, orderId };
}

/** The page of each type the JS and Lighthouse sections visit. */
export function pagePaths(f: StoreFixtures): Record<string, string | null> {
  return {
    'store front': `/${f.slug}`,
    shop: `/${f.slug}/shop`,
    product: `/${f.slug}/product/${f.productId}`,
    bundle: f.bundleId ? `/${f.slug}/product-bundle/${f.bundleId}` : null,
    cart: `/${f.slug}/cart`,
    checkout: `/${f.slug}/checkout`,
    'order confirmation': f.orderId ? `/${f.slug}/order-confirmation/${f.orderId}` : null,
  };
}
