/**
 * The HTTP contract between the storefront and the commerce API (spec §3, §7).
 *
 * The server's answers are built to these types and the storefront reads them; nothing
 * else crosses the boundary. Field names the spec gives are kept exactly (snake_case and
 * camelCase mixed as the spec has them); fields the spec leaves "not shown" are ours.
 * Money is a decimal string with two decimals ("12.50"); integer cents stay inside.
 */

/** A decimal money string with two decimals, e.g. "12.50". */
export type Money = string;

/** JSON:API-style resource: `{ id, type, attributes }`. */
export type Resource<TType extends string, TAttributes> = {
  id: string;
  type: TType;
  attributes: TAttributes;
};

export type One<T> = {
  data: T;
};

export type Many<T> = {
  data: T[];
  /** Present on paginated lists. */
  meta?: { total: number; page: number; perPage: number };
};

// ---------------------------------------------------------------- store

export type StoreAttributes = {
  title: string;
  slug: string;
  /** Absolute or root-relative URL; null when the store has none. */
  faviconImage: string | null;
  allowedListsPresent: boolean;
  /** Ours: short text for the store front hero. */
  description: string | null;
  /**
   * Ours: a product page says "Only N left" when a variant's stock is at or below this (0: never).
   * Optional so a backend without it still serves; the storefront then uses 5.
   */
  lowStockThreshold?: number;
};

/** `GET store_front/{slug}` and `GET store_front?custom_domain=` answer `data.data` of this. */
export type StoreInfo = One<Resource<'store', StoreAttributes>>;

// ---------------------------------------------------------------- catalog

export type Image = {
  id: string;
  url: string;
  alt?: string;
};

export type ProductAttributes = {
  name: string;
  /** Sanitised HTML. */
  description: string;
  /** Lowest price among available variants. */
  price: Money;
  images: Image[];
  default_e_commerce_image_id: string | null;
  /** True when at least one variant has stock. */
  available: boolean;
  featured: boolean;
  /** Option names in display order, e.g. ["Size", "Color"]; empty when the product has one variant. */
  optionNames: string[];
};

export type Product = Resource<'product', ProductAttributes>;

export type ProductVariantAttributes = {
  product_id: string;
  name: string;
  sku: string;
  /** Option name → value, e.g. { Size: "M", Color: "Red" }. */
  options: Record<string, string>;
  price: Money;
  stock: number;
  available: boolean;
};

export type ProductVariant = Resource<'product_variant', ProductVariantAttributes>;

export type BundleAttributes = {
  name: string;
  description: string;
  /** Sum of item prices × quantities. */
  price: Money;
  images: Image[];
  default_e_commerce_image_id: string | null;
  available: boolean;
  featured: boolean;
};

export type Bundle = Resource<'bundle', BundleAttributes>;

export type BundleItemAttributes = {
  bundle_id: string;
  product_id: string;
  product_variant_id: string;
  product_name: string;
  variant_name: string;
  quantity: number;
  /** Unit price of the variant. */
  price: Money;
  images: Image[];
  default_e_commerce_image_id: string | null;
};

export type BundleItem = Resource<'bundle_item', BundleItemAttributes>;

/**
 * List queries for `GET …/products` and `GET …/bundles` (all optional):
 * `page` (1-based), `per_page` (1..500, default 48), `sort` (`name`, `-name`, `price`, `-price`),
 * `q` (case-insensitive text search in name), `featured=true`.
 */
export type ListQuery = {
  page?: number;
  per_page?: number;
  sort?: 'name' | '-name' | 'price' | '-price';
  q?: string;
  featured?: boolean;
};

// ---------------------------------------------------------------- cart

export type BundleDetails = {
  id: string;
  name: string;
  /** How many of the bundle are in the cart (each of its lines has item quantity × this). */
  quantity: number;
  images: Image[];
};

export type ProductDetails = {
  product_id: string;
  product_variant_id: string;
  name: string;
  variant_name: string;
  image: Image | null;
};

export type CartItem = {
  id: string;
  quantity: number;
  /** Line total: unit price × quantity. */
  price: Money;
  unit_price: Money;
  bundle_id: string | null;
  bundle_details: BundleDetails | null;
  product_details: ProductDetails;
};

export type GiftCard = {
  id: string;
  code: string;
  /** Amount this card takes from the cart's total. */
  amount: Money;
};

export type Address = {
  first_name: string;
  last_name: string;
  email: string;
  address_line1: string;
  address_line2: string;
  city: string;
  /** Two-letter country code. */
  country: string;
  state: string;
  zip: string;
  phone: string;
};

export type Cart = {
  cartItems: CartItem[];
  /** Units a shopper sees: product line quantities plus bundle quantities (a bundle counts once). */
  cartLineItemsSize: number;
  subTotal: Money;
  total: Money;
  tax: Money;
  shippingFee: Money;
  giftCards: GiftCard[];
  /** Ours: the saved contact and shipping address, null until `PUT …/cart`. */
  address: Address | null;
  /** Ours: true when a card payment is needed (total > 0). */
  requiresPayment: boolean;
};

/** `POST …/cart/cart_line_items` bodies. */
export type AddLinePayload =
  | { cart_line_item: { product_variant_id: string; quantity: number } }
  | { cart_line_item: { bundle_id: string; quantity: number } };

/** `PATCH …/cart/cart_line_items/{id}`; on a bundle line it moves the whole bundle. */
export type ChangeQuantityPayload = {
  cart_line_item: { quantity: number };
};

/** `PUT …/cart`. */
export type AddressPayload = {
  cart: Address;
};

export type GiftCardPayload = {
  gift_card: { code: string };
};

// ---------------------------------------------------------------- checkout and orders

export type PaymentIntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'processing' | 'succeeded' | 'canceled';

export type PaymentIntent = {
  id: string;
  /** What the payment provider's client needs to confirm the payment. */
  clientSecret: string;
  amount: Money;
  currency: 'usd';
  status: PaymentIntentStatus;
  provider: 'test' | 'stripe';
};

/** `POST …/cart/checkout` (empty body). `paymentIntent` is null when gift cards cover the total. */
export type CheckoutAnswer = {
  paymentIntent: PaymentIntent | null;
  requiresPayment: boolean;
};

/** `POST …/cart/finalize` body. `payment_intent_id` is omitted when no payment is needed. */
export type FinalizePayload = {
  payment_intent_id?: string;
};

export type OrderDetails = {
  /** Random uuid: `/order/{id}`, `/order-confirmation/{id}`. */
  id: string;
  /** Human order number, e.g. "A-10042". */
  number: string;
  /** ISO 8601. */
  createdAt: string;
  status: 'paid';
  storeSlug: string;
  cartItems: CartItem[];
  cartLineItemsSize: number;
  subTotal: Money;
  tax: Money;
  shippingFee: Money;
  giftCards: GiftCard[];
  total: Money;
  address: Address;
};

/** `GET /cart/{order_uuid}` and `POST …/cart/finalize` answer this. */
export type Order = {
  orderDetails: OrderDetails;
  paymentIntent: PaymentIntent | null;
};

// ---------------------------------------------------------------- errors

/** Every 4xx answer has this body; 422 validation answers carry `errors`. */
export type ErrorBody = {
  message: string;
  errors?: Record<string, string[]>;
};

/** Header names of spec §6–§7. */
export const HEADER = {
  recipientToken: 'recipient-token',
  allowedRecipientToken: 'allowed-recipient-token',
  allowedDomainToken: 'allowed-domain-token',
  browserToken: 'browser_token',
} as const;

export const MESSAGE = {
  restricted: 'The store has restricted access. Please contact Admin.',
  notFound: 'Record not found',
  /** 401 to a `recipient-token` the API did not issue; the client drops it and asks again without one. */
  cartTokenRefused: 'Your cart session is not valid. Please reload the page.',
} as const;
