/**
 * Typed client for the commerce API (spec §7 plus the extensions in docs/api.md).
 *
 * Works in the browser (cookies from document.cookie) and on the server (a jar built from the
 * request's Cookie header). Sends the access headers of spec §6–§7 from cookies, saves a
 * `recipient-token` answer header when the shopper has none, and retries per retry-policy.ts
 * (the core lives in api-request.ts).
 */
import type {
  AddLinePayload,
  AddressPayload,
  Bundle,
  BundleItem,
  Cart,
  ChangeQuantityPayload,
  CheckoutAnswer,
  FinalizePayload,
  GiftCardPayload,
  ListQuery,
  Many,
  One,
  Order,
  PaymentIntent,
  Product,
  ProductVariant,
} from './api-types.ts';
import { createRequester, getCart, getStore, getStoreByDomain, seg, sf, type ApiClientOptions, type Requester } from './api-request.ts';

export { ApiError, NetworkError, isApiError } from './api-error.ts';
export {
  createRequester,
  getCart,
  getStore,
  getStoreByDomain,
  publicApiBaseUrl,
  type ApiClientOptions,
  type Method,
  type Requester,
} from './api-request.ts';

export interface VerifyAllowedUserPayload {
  email: string;
  browser_token: string;
}

/** What `POST …/allowed_users/verify` answers (the same whether or not the email is listed). */
export interface VerifyAllowedUserAnswer {
  message: string;
}

export interface TestCardPayload {
  card: { number: string; exp_month: number; exp_year: number; cvc: string };
}

function listQuery(query: ListQuery | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Creates a client with a method per call; every method throws ApiError (answered) or NetworkError (no answer). */
export function createApiClient(options: ApiClientOptions | { requester: Requester }) {
  const request = 'requester' in options ? options.requester : createRequester(options);

  return {
    /** GET /api/health (extension). */
    health: () => request<{ ok: boolean }>('GET', 'health'),

    /** GET store_front/{slug}. */
    getStore: (slug: string) => getStore(request, slug),
    /** GET store_front?custom_domain={domain}. */
    getStoreByDomain: (domain: string) => getStoreByDomain(request, domain),
    /** POST store_front/{slug}/allowed_users/verify (+ ?custom_domain= on custom hosts). */
    verifyAllowedUser: (slug: string, payload: VerifyAllowedUserPayload, customDomain?: string | null) =>
      request<VerifyAllowedUserAnswer>(
        'POST',
        `${sf(slug)}/allowed_users/verify${customDomain ? `?custom_domain=${encodeURIComponent(customDomain)}` : ''}`,
        payload,
      ),

    /** GET store_front/{slug}/products (ListQuery extension). */
    listProducts: (slug: string, query?: ListQuery) => request<Many<Product>>('GET', `${sf(slug)}/products${listQuery(query)}`),
    /** GET store_front/{slug}/products/{id} (extension). */
    getProduct: (slug: string, id: string) => request<One<Product>>('GET', `${sf(slug)}/products/${seg(id)}`),
    /** GET store_front/{slug}/products/{id}/product_variants. */
    listProductVariants: (slug: string, productId: string) =>
      request<Many<ProductVariant>>('GET', `${sf(slug)}/products/${seg(productId)}/product_variants`),
    /** GET store_front/{slug}/bundles (ListQuery extension). */
    listBundles: (slug: string, query?: ListQuery) => request<Many<Bundle>>('GET', `${sf(slug)}/bundles${listQuery(query)}`),
    /** GET store_front/{slug}/bundles/{id} (extension). */
    getBundle: (slug: string, id: string) => request<One<Bundle>>('GET', `${sf(slug)}/bundles/${seg(id)}`),
    /** GET store_front/{slug}/bundles/{id}/bundle_items. */
    listBundleItems: (slug: string, bundleId: string) =>
      request<Many<BundleItem>>('GET', `${sf(slug)}/bundles/${seg(bundleId)}/bundle_items`),

    /** GET store_front/{slug}/cart. */
    getCart: (slug: string) => getCart(request, slug),
    /** POST store_front/{slug}/cart/cart_line_items. */
    addCartLine: (slug: string, payload: AddLinePayload) => request<Cart>('POST', `${sf(slug)}/cart/cart_line_items`, payload),
    /** PATCH store_front/{slug}/cart/cart_line_items/{id}. */
    changeCartLine: (slug: string, lineId: string, payload: ChangeQuantityPayload) =>
      request<Cart>('PATCH', `${sf(slug)}/cart/cart_line_items/${seg(lineId)}`, payload),
    /** DELETE store_front/{slug}/cart/cart_line_items/{id}. */
    removeCartLine: (slug: string, lineId: string) => request<Cart>('DELETE', `${sf(slug)}/cart/cart_line_items/${seg(lineId)}`),
    /** PUT store_front/{slug}/cart (address). */
    putAddress: (slug: string, payload: AddressPayload) => request<Cart>('PUT', `${sf(slug)}/cart`, payload),
    /** POST store_front/{slug}/gift_cards/apply. */
    applyGiftCard: (slug: string, payload: GiftCardPayload) => request<Cart>('POST', `${sf(slug)}/gift_cards/apply`, payload),
    /** POST store_front/{slug}/gift_cards/{id}/remove. */
    removeGiftCard: (slug: string, giftCardId: string, payload: GiftCardPayload) =>
      request<Cart>('POST', `${sf(slug)}/gift_cards/${seg(giftCardId)}/remove`, payload),
    /** POST store_front/{slug}/cart/checkout (empty body). */
    checkout: (slug: string) => request<CheckoutAnswer>('POST', `${sf(slug)}/cart/checkout`, {}),
    /** POST store_front/{slug}/cart/finalize. */
    finalize: (slug: string, payload: FinalizePayload) => request<Order>('POST', `${sf(slug)}/cart/finalize`, payload),

    /** GET cart/{order_uuid}. */
    getOrder: (orderUuid: string) => request<Order>('GET', `cart/${seg(orderUuid)}`),

    /** POST test_processor/payment_intents/{id}/confirm (extension; test card processor). */
    confirmTestPayment: (intentId: string, payload: TestCardPayload) =>
      request<PaymentIntent>('POST', `test_processor/payment_intents/${seg(intentId)}/confirm`, payload),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The server's base URL: `API_INTERNAL_URL`, default `http://127.0.0.1:${PORT}/api/`. */
export function internalApiBaseUrl(env: Record<string, string | undefined>): string {
  return env.API_INTERNAL_URL || `http://127.0.0.1:${env.PORT || '4321'}/api/`;
}
