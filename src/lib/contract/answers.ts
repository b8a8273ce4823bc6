/**
 * What the commerce API answers (spec §3, §7), as zod schemas: the storefront's types are inferred
 * from them, /api/openapi.json is generated from them, and the API tests check every answer against
 * them (docs/decisions/171-one-zod-contract.md). Field names the spec gives are kept exactly (snake_case
 * and camelCase mixed as the spec has them); fields the spec leaves "not shown" are ours. Objects are
 * strict: a field the server adds without adding it here fails the API tests.
 *
 * Browser code imports only the types of this module: zod stays out of the pages' JavaScript.
 */
import { z } from 'zod';

/** A decimal money string with two decimals, e.g. "12.50"; integer cents stay inside the API. */
export const money = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ id: 'Money', description: 'A decimal amount with two decimals, e.g. "12.50".', examples: ['12.50'] });

/** JSON:API-style resource: `{ id, type, attributes }`. */
function resource<TType extends string, TAttributes extends z.ZodType>(type: TType, attributes: TAttributes) {
  return z.strictObject({ id: z.string(), type: z.literal(type), attributes });
}

/** `{ data }`: one resource. */
export function one<T extends z.ZodType>(data: T) {
  return z.strictObject({ data });
}

/** `{ data: [], meta? }`: a list, with `meta` on paginated lists. */
export function many<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), meta: pageMeta.optional() });
}

const pageMeta = z
  .strictObject({ total: z.number().int().min(0), page: z.number().int().min(1), perPage: z.number().int().min(1) })
  .meta({ id: 'PageMeta' });

/** `meta.facets` of a listing (docs/decisions/192-listing-facets.md): each count ignores its own facet's selection. */
const listingFacets = z
  .strictObject({
    /** Entries in stock, under the other filters. */
    in_stock: z.number().int().min(0),
    /** The lowest and highest price under the other filters; null when nothing is left. */
    price: z.strictObject({ min: money, max: money }).nullable(),
    options: z.array(
      z.strictObject({
        name: z.string(),
        values: z.array(z.strictObject({ value: z.string(), count: z.number().int().min(0) })),
      }),
    ),
  })
  .meta({ id: 'ListingFacets' });
export type ListingFacets = z.infer<typeof listingFacets>;

/** A page of `…/listings`, `…/collections/{handle}/listings` or `…/search`, with the facets of its filters. */
export function listingPage<T extends z.ZodType>(item: T) {
  return z.strictObject({ data: z.array(item), meta: pageMeta.extend({ facets: listingFacets }) });
}
export type ListingPage<T> = { data: T[]; meta: z.infer<typeof pageMeta> & { facets: ListingFacets } };

export type One<T> = { data: T };
export type Many<T> = { data: T[]; meta?: z.infer<typeof pageMeta> | undefined };

// ---------------------------------------------------------------- store

/** The policies a store may publish, in the order its footer lists them. */
export const POLICY_KINDS = ['shipping', 'returns', 'privacy', 'terms'] as const;
export const policyKind = z.enum(POLICY_KINDS).meta({ id: 'PolicyKind' });
export type PolicyKind = z.infer<typeof policyKind>;

/** Ours: a collection as store info names it, for links (the header's navigation, the sitemap). */
export const collectionLink = z.strictObject({ handle: z.string(), title: z.string() }).meta({ id: 'CollectionLink' });
export type CollectionLink = z.infer<typeof collectionLink>;

export const storeAttributes = z
  .strictObject({
    title: z.string(),
    slug: z.string(),
    /** Absolute or root-relative URL; null when the store has none. */
    faviconImage: z.string().nullable(),
    allowedListsPresent: z.boolean(),
    /**
     * Ours: the store front's hero picture (absolute or root-relative URL); null when it has none.
     * Optional so a backend without it still serves; the store front then shows no hero image.
     */
    heroImage: z.string().nullable().optional(),
    /** Ours: short text for the store front hero. */
    description: z.string().nullable(),
    /**
     * Ours: the store's own domain (no scheme), where its pages' canonical URLs are; null when it has none.
     * Optional so a backend without it still serves; the storefront then keeps canonical URLs under `/{slug}`.
     */
    customDomain: z.string().nullable().optional(),
    /**
     * Ours: a product page says "Only N left" when a variant's stock is at or below this (0: never).
     * Optional so a backend without it still serves; the storefront then uses 5.
     */
    lowStockThreshold: z.number().int().min(0).optional(),
    /** Ours: the policy pages the store has (`GET …/policies/{kind}`), in footer order. Optional as above. */
    policies: z.array(policyKind).optional(),
    /** Ours: where shoppers write to the store; null when it gives none. Optional as above. */
    contactEmail: z.string().nullable().optional(),
    /** Ours: the store's collections (`GET …/collections/{handle}`), in its order. Optional as above. */
    collections: z.array(collectionLink).optional(),
  })
  .meta({ id: 'StoreAttributes' });
export type StoreAttributes = z.infer<typeof storeAttributes>;

/** `GET store_front/{slug}` and `GET store_front?custom_domain=`. */
export const storeInfo = one(resource('store', storeAttributes)).meta({ id: 'StoreInfo' });
export type StoreInfo = z.infer<typeof storeInfo>;

/** `GET …/policies/{kind}`: one policy page, its text as the store wrote it (sanitised HTML). */
export const policy = one(
  resource('policy', z.strictObject({ kind: policyKind, title: z.string(), bodyHtml: z.string() })),
).meta({ id: 'Policy' });
export type Policy = z.infer<typeof policy>;

// ---------------------------------------------------------------- catalog

export const image = z
  .strictObject({ id: z.string(), url: z.string(), alt: z.string().optional() })
  .meta({ id: 'Image' });
export type Image = z.infer<typeof image>;

/** What a product and a bundle both show: name, description, price, images, availability. */
const catalogItemFields = {
  name: z.string(),
  /** Sanitised HTML. */
  description: z.string(),
  /** A product's lowest price among available variants; a bundle's sum of item prices × quantities. */
  price: money,
  images: z.array(image),
  default_e_commerce_image_id: z.string().nullable(),
  /** True when it can be bought now (a product: some variant has stock). */
  available: z.boolean(),
  featured: z.boolean(),
};

export const product = resource(
  'product',
  z.strictObject({
    ...catalogItemFields,
    /** Option names in display order, e.g. ["Size", "Color"]; empty when the product has one variant. */
    optionNames: z.array(z.string()),
  }),
).meta({ id: 'Product' });
export type Product = z.infer<typeof product>;

export const productVariant = resource(
  'product_variant',
  z.strictObject({
    product_id: z.string(),
    name: z.string(),
    sku: z.string(),
    /** Option name → value, e.g. { Size: "M", Color: "Red" }. */
    options: z.record(z.string(), z.string()),
    price: money,
    stock: z.number().int().min(0),
    available: z.boolean(),
    /**
     * The ids of the product's images that show this variant, in gallery order; they lead the gallery when
     * it is chosen. Empty: none of its own. Optional so a backend without it still serves.
     */
    image_ids: z.array(z.string()).optional(),
  }),
).meta({ id: 'ProductVariant' });
export type ProductVariant = z.infer<typeof productVariant>;

export const bundle = resource('bundle', z.strictObject(catalogItemFields)).meta({ id: 'Bundle' });

/** A list item of `fields=id` (extension, docs/api.md): its id and type alone, what a sitemap needs. */
export const itemId = (type: 'product' | 'bundle') =>
  z.strictObject({ id: z.string(), type: z.literal(type) }).meta({ id: type === 'product' ? 'ProductId' : 'BundleId' });

/** What a list of `fields=id` holds of each item. */
export type ItemId = { id: string; type: 'product' | 'bundle' };
export type Bundle = z.infer<typeof bundle>;

/** One entry of `…/listings`: a product or a bundle, told apart by `type`. */
export const listing = z.discriminatedUnion('type', [product, bundle]).meta({ id: 'Listing' });
export type Listing = z.infer<typeof listing>;

/**
 * `GET …/collections`, `GET …/collections/{handle}`: a named group of the store's products and bundles
 * (its items: `GET …/collections/{handle}/listings`). The handle names it in URLs; unique in its store.
 */
export const collection = resource(
  'collection',
  z.strictObject({ handle: z.string(), title: z.string(), description: z.string().nullable() }),
).meta({ id: 'Collection' });
export type Collection = z.infer<typeof collection>;

/** One product's collections in the bulk call (`…/product_collections?product_ids=…`, extension). */
export const productCollections = z
  .strictObject({ product_id: z.string(), collections: z.array(collection) })
  .meta({ id: 'ProductCollections' });
export type ProductCollections = z.infer<typeof productCollections>;

export const bundleItem = resource(
  'bundle_item',
  z.strictObject({
    bundle_id: z.string(),
    product_id: z.string(),
    product_variant_id: z.string(),
    product_name: z.string(),
    variant_name: z.string(),
    quantity: z.number().int().min(1),
    /** Unit price of the variant. */
    price: money,
    images: z.array(image),
    default_e_commerce_image_id: z.string().nullable(),
  }),
).meta({ id: 'BundleItem' });
export type BundleItem = z.infer<typeof bundleItem>;

// ---------------------------------------------------------------- cart

const bundleDetails = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    /** How many of the bundle are in the cart (each of its lines has item quantity × this). */
    quantity: z.number().int().min(1),
    images: z.array(image),
  })
  .meta({ id: 'BundleDetails' });

export const productDetails = z
  .strictObject({
    product_id: z.string(),
    product_variant_id: z.string(),
    name: z.string(),
    variant_name: z.string(),
    image: image.nullable(),
  })
  .meta({ id: 'ProductDetails' });
export type ProductDetails = z.infer<typeof productDetails>;

export const cartItem = z
  .strictObject({
    id: z.string(),
    quantity: z.number().int().min(1),
    /** Line total: unit price × quantity. */
    price: money,
    unit_price: money,
    bundle_id: z.string().nullable(),
    bundle_details: bundleDetails.nullable(),
    product_details: productDetails,
  })
  .meta({ id: 'CartItem' });
export type CartItem = z.infer<typeof cartItem>;

export const giftCard = z
  .strictObject({
    id: z.string(),
    code: z.string(),
    /** Amount this card takes from the cart's total. */
    amount: money,
  })
  .meta({ id: 'GiftCard' });
export type GiftCard = z.infer<typeof giftCard>;

export const address = z
  .strictObject({
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    address_line1: z.string(),
    address_line2: z.string(),
    city: z.string(),
    /** Two-letter country code. */
    country: z.string(),
    state: z.string(),
    zip: z.string(),
    phone: z.string(),
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof address>;

export const cart = z
  .strictObject({
    cartItems: z.array(cartItem),
    /** Units a shopper sees: product line quantities plus bundle quantities (a bundle counts once). */
    cartLineItemsSize: z.number().int().min(0),
    subTotal: money,
    total: money,
    tax: money,
    shippingFee: money,
    giftCards: z.array(giftCard),
    /**
     * Ours: the saved contact and shipping address, null until `PUT …/cart`. Tax and shipping are
     * priced for it; without one both are 0.00 and the storefront shows "Calculated at checkout".
     */
    address: address.nullable(),
    /** Ours: shipping is free from this subtotal at the address's zone (the store's own before an address); null never. */
    freeShippingThreshold: money.nullable(),
    /** Ours: true when a card payment is needed (total > 0). */
    requiresPayment: z.boolean(),
  })
  .meta({ id: 'Cart' });
export type Cart = z.infer<typeof cart>;

// ---------------------------------------------------------------- checkout and orders

export const paymentIntentStatus = z.enum([
  'requires_payment_method',
  'requires_confirmation',
  'processing',
  'succeeded',
  'canceled',
]);
export type PaymentIntentStatus = z.infer<typeof paymentIntentStatus>;

export const paymentIntent = z
  .strictObject({
    id: z.string(),
    /** What the payment provider's client needs to confirm the payment. */
    clientSecret: z.string(),
    amount: money,
    currency: z.literal('usd'),
    status: paymentIntentStatus,
    provider: z.enum(['test', 'stripe']),
  })
  .meta({ id: 'PaymentIntent' });
export type PaymentIntent = z.infer<typeof paymentIntent>;

/** `POST …/cart/checkout`. `paymentIntent` is null when gift cards cover the total. */
export const checkoutAnswer = z
  .strictObject({ paymentIntent: paymentIntent.nullable(), requiresPayment: z.boolean() })
  .meta({ id: 'CheckoutAnswer' });
export type CheckoutAnswer = z.infer<typeof checkoutAnswer>;

export const orderDetails = z
  .strictObject({
    /** Random uuid: `/order/{id}`, `/order-confirmation/{id}`. */
    id: z.string(),
    /** Human order number, e.g. "A-10042". */
    number: z.string(),
    /** ISO 8601. */
    createdAt: z.string(),
    /** `paid`, or once the store gave money back `partially_refunded` / `refunded` (ours beyond `paid`). */
    status: z.enum(['paid', 'partially_refunded', 'refunded']),
    storeSlug: z.string(),
    cartItems: z.array(cartItem),
    cartLineItemsSize: z.number().int().min(0),
    subTotal: money,
    tax: money,
    shippingFee: money,
    giftCards: z.array(giftCard),
    total: money,
    address,
    /** Ours: what the store gave back so far. Optional so a backend without refunds still serves. */
    refunded: money.optional(),
    /** Ours: how the order left the store; null until it did. Optional as above. */
    fulfillment: z
      .strictObject({ carrier: z.string(), trackingNumber: z.string(), fulfilledAt: z.string() })
      .nullable()
      .optional(),
  })
  .meta({ id: 'OrderDetails' });

/** `GET /cart/{order_uuid}` and `POST …/cart/finalize`. */
export const order = z.strictObject({ orderDetails, paymentIntent: paymentIntent.nullable() }).meta({ id: 'Order' });
export type Order = z.infer<typeof order>;

// ---------------------------------------------------------------- other answers

/** The allowed-users verify answer: the same words whether or not the address is listed. */
export const messageAnswer = z.strictObject({ message: z.string() }).meta({ id: 'Message' });

/** Every 4xx and 5xx answer has this body; 422 validation answers carry `errors` by field. */
export const errorBody = z
  .strictObject({
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
    /** Ours: a restricted store's refusal names the store, so its access page can (the 422 vs 404 already tells it exists). */
    store: z.strictObject({ title: z.string() }).optional(),
    /** Ours: a publish refused because a build is running names that build, so the caller can follow it. */
    build: z.strictObject({ id: z.string(), status_url: z.string() }).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBody>;

export const health = z.strictObject({ ok: z.literal(true) });

export const webhookReceipt = z.strictObject({ received: z.literal(true), duplicate: z.literal(true).optional() });

/** A mail as the development outbox shows it. */
export const devMail = z
  .strictObject({
    id: z.string(),
    kind: z.string(),
    messageId: z.string(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable(),
    status: z.enum(['queued', 'sent', 'failed']),
    attempts: z.number().int().min(0),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
  })
  .meta({ id: 'DevMail' });
export type DevMail = z.infer<typeof devMail>;

// ---------------------------------------------------------------- console (docs/decisions/197-operator-auth.md)

export const operatorRole = z.enum(['owner', 'editor']).meta({ id: 'OperatorRole' });
export type OperatorRole = z.infer<typeof operatorRole>;

/** The signed-in operator: the stores they may open and their role in each, and the session's CSRF token. */
export const consoleSession = z
  .strictObject({
    email: z.string(),
    stores: z.array(
      z.strictObject({
        slug: z.string(),
        title: z.string(),
        role: operatorRole,
        /** Whether the store admits only its allowed recipients and domain tokens (its access page is offered then). */
        restricted: z.boolean(),
      }),
    ),
    /** Sent back in `x-csrf-token` on every console write. */
    csrf_token: z.string(),
  })
  .meta({ id: 'ConsoleSession' });
export type ConsoleSession = z.infer<typeof consoleSession>;

export const staffMember = z
  .strictObject({ id: z.string(), email: z.string(), role: operatorRole, you: z.boolean() })
  .meta({ id: 'StaffMember' });
export type StaffMember = z.infer<typeof staffMember>;

export const auditEntry = z
  .strictObject({
    id: z.string(),
    actor: z.string(),
    action: z.string(),
    entity: z.string(),
    entity_id: z.string().nullable(),
    before: z.unknown(),
    after: z.unknown(),
    at: z.string(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntry>;

// ---------------------------------------------------------------- console orders (docs/decisions/198-console-orders.md)

export const orderPaymentStatus = z.enum(['paid', 'partially_refunded', 'refunded']).meta({ id: 'OrderPaymentStatus' });
export type OrderPaymentStatus = z.infer<typeof orderPaymentStatus>;

/** One row of the console's order list. */
export const consoleOrderSummary = z
  .strictObject({
    id: z.string(),
    number: z.string(),
    created_at: z.string(),
    email: z.string(),
    name: z.string(),
    /** Paid in all: card and gift cards. */
    paid: money,
    refunded: money,
    payment_status: orderPaymentStatus,
    fulfillment_status: z.enum(['unfulfilled', 'fulfilled']),
    /** Units, as the cart counts them. */
    items: z.number().int().min(0),
  })
  .meta({ id: 'ConsoleOrderSummary' });
export type ConsoleOrderSummary = z.infer<typeof consoleOrderSummary>;

const consoleOrderLine = z
  .strictObject({
    id: z.string(),
    product_name: z.string(),
    variant_name: z.string(),
    product_variant_id: z.string(),
    /** The variant's SKU today; null when the variant was deleted since. */
    sku: z.string().nullable(),
    quantity: z.number().int().min(1),
    unit_price: money,
    price: money,
    bundle: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
    /** A refund already gave this line's stock back. */
    restocked: z.boolean(),
  })
  .meta({ id: 'ConsoleOrderLine' });

const consoleRefund = z
  .strictObject({
    id: z.string(),
    amount: money,
    /** Back to the card. */
    card_amount: money,
    /** Credited back to the gift cards that paid. */
    gift_card_amount: money,
    restocked_line_ids: z.array(z.string()),
    actor: z.string(),
    created_at: z.string(),
    /** False while the payment provider's answer is owed (the amount stays reserved). */
    settled: z.boolean(),
  })
  .meta({ id: 'ConsoleRefund' });

/** `GET …/orders/{id}`: everything an operator needs to refund or fulfil it. */
export const consoleOrder = z
  .strictObject({
    ...consoleOrderSummary.shape,
    lines: z.array(consoleOrderLine),
    subtotal: money,
    tax: money,
    shipping: money,
    /** Paid by gift cards. */
    gift_cards_total: money,
    /** Paid by card. */
    card_total: money,
    /** What a refund may still give back. */
    refundable: money,
    payment: z
      .strictObject({ provider: z.enum(['test', 'stripe']), payment_intent_id: z.string(), amount: money })
      .nullable(),
    gift_cards: z.array(z.strictObject({ code: z.string(), amount: money })),
    address,
    fulfillment: z
      .strictObject({ carrier: z.string(), tracking_number: z.string(), fulfilled_at: z.string() })
      .nullable(),
    refunds: z.array(consoleRefund),
    /** Oldest first. */
    history: z.array(
      z.strictObject({ at: z.string(), event: z.enum(['placed', 'refunded', 'fulfilled']), summary: z.string() }),
    ),
  })
  .meta({ id: 'ConsoleOrder' });
export type ConsoleOrder = z.infer<typeof consoleOrder>;

// ---------------------------------------------------------------- publishing (docs/decisions/202-publishing-builds.md)

export const buildStatus = z.enum(['building', 'ready', 'live', 'failed', 'rolled_back']).meta({ id: 'BuildStatus' });

/** Pages a build added, changed and removed against the build live when it rendered (docs/decisions/208-preview-and-live-build.md). */
export const buildChanges = z
  .strictObject({ added: z.number().int(), changed: z.number().int(), removed: z.number().int() })
  .meta({ id: 'BuildChanges' });
export type BuildChanges = z.infer<typeof buildChanges>;

/** One snapshot build: who asked, from which store's console, how it went. */
export const build = z
  .strictObject({
    id: z.string(),
    /** `ready`: rendered, not live (a preview, or a build switched away from); `rolled_back`: switched away from by a rollback. */
    status: buildStatus,
    /** An operator's email, `token` (the HTTP hook) or `cli`. */
    requested_by: z.string(),
    /** The slug of the store whose console asked; null for the token and the command line. */
    store: z.string().nullable(),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    pages: z.number().int().nullable(),
    duration_ms: z.number().int().nullable(),
    /** The failure's message (never a stack). */
    error: z.string().nullable(),
    /** null until it rendered. */
    changes: buildChanges.nullable(),
    /** Its folder is kept (the last BUILDS_KEPT): it can be previewed and go live. */
    kept: z.boolean(),
  })
  .meta({ id: 'Build' });
export type Build = z.infer<typeof build>;

/** The answer to a publish: the build started, and where to follow it. */
export const buildStarted = z
  .strictObject({ id: z.string(), status: z.literal('building'), status_url: z.string() })
  .meta({ id: 'BuildStarted' });
export type BuildStarted = z.infer<typeof buildStarted>;

/** A store's auto-publish setting (docs/decisions/208-preview-and-live-build.md). */
export const autoPublish = z
  .strictObject({ enabled: z.boolean(), quiet_seconds: z.number().int() })
  .meta({ id: 'AutoPublish' });
export type AutoPublish = z.infer<typeof autoPublish>;

/** A `progress` event of a build's event stream. */
export const buildProgress = z
  .strictObject({
    done: z.number().int(),
    total: z.number().int(),
    elapsed_ms: z.number().int(),
    /** null until the first page is done. */
    eta_ms: z.number().int().nullable(),
  })
  .meta({ id: 'BuildProgress' });
export type BuildProgress = z.infer<typeof buildProgress>;

// ---------------------------------------------------------------- console: catalog and gift cards
// (docs/decisions/199-console-catalog-and-gift-cards.md)

/** A row of the console's product list. */
export const consoleProductSummary = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    skus: z.array(z.string()),
    /** The lowest variant price. */
    price: money,
    /** Units in stock over all variants. */
    stock: z.number().int(),
    featured: z.boolean(),
    position: z.number().int(),
    /** A variant's stock is at or below the store's low-stock threshold (never when the threshold is 0). */
    low_stock: z.boolean(),
    /** What a bundle's item picker offers (docs/decisions/206-console-collections-and-bundles.md). */
    variants: z.array(z.strictObject({ id: z.string(), sku: z.string(), name: z.string() })),
    /** Hidden from the storefront, kept for its orders. */
    archived: z.boolean(),
  })
  .meta({ id: 'ConsoleProductSummary' });
export type ConsoleProductSummary = z.infer<typeof consoleProductSummary>;

export const stockReason = z.enum(['received', 'correction', 'damaged', 'other']).meta({ id: 'StockReason' });
export type StockReason = z.infer<typeof stockReason>;

export const stockAdjustment = z
  .strictObject({
    id: z.string(),
    variant_id: z.string(),
    sku: z.string(),
    change: z.number().int(),
    stock_after: z.number().int().min(0),
    reason: stockReason,
    note: z.string(),
    actor: z.string(),
    at: z.string(),
  })
  .meta({ id: 'StockAdjustment' });

/** What the product and bundle edit forms show alike. */
const listingForm = {
  id: z.string(),
  name: z.string(),
  /** Sanitised HTML, as the storefront shows it. */
  description_html: z.string(),
  featured: z.boolean(),
  position: z.number().int(),
  /** Sent back with a save: a save made from an older version is refused (409). */
  version: z.number().int().min(1),
};

/** The console's product edit page: the form's fields, its version, and the stock log (newest first). */
export const consoleProduct = z
  .strictObject({
    ...listingForm,
    /** The product's options (Size, Color …) in the order the storefront offers them. */
    option_names: z.array(z.string()),
    /** The variants on sale. */
    variants: z.array(
      z.strictObject({
        id: z.string(),
        sku: z.string(),
        name: z.string(),
        /** A value for each of `option_names`. */
        options: z.record(z.string(), z.string()),
        price: money,
        stock: z.number().int().min(0),
      }),
    ),
    /** When it was archived: hidden from the storefront, kept for its orders (docs/decisions/207-product-editor.md). */
    archived_at: z.string().nullable(),
    /** Variants taken off sale that orders or carts still name (docs/decisions/207-product-editor.md). */
    deactivated_variants: z.array(
      z.strictObject({ id: z.string(), sku: z.string(), name: z.string(), deactivated_at: z.string() }),
    ),
    adjustments: z.array(stockAdjustment),
  })
  .meta({ id: 'ConsoleProduct' });
export type ConsoleProduct = z.infer<typeof consoleProduct>;

/** A removed product: `deleted` when nothing named it, `archived` when orders or carts do. */
export const productRemoval = z
  .strictObject({ data: z.strictObject({ id: z.string(), outcome: z.enum(['deleted', 'archived']) }) })
  .meta({ id: 'ProductRemoval' });
export type ProductRemoval = z.infer<typeof productRemoval>;

/** A removed variant: `deleted` when nothing named it, `deactivated` when orders or carts do. */
export const variantRemoval = z
  .strictObject({
    data: consoleProduct,
    meta: z.strictObject({ outcome: z.enum(['deleted', 'deactivated']) }),
  })
  .meta({ id: 'VariantRemoval' });
export type VariantRemoval = z.infer<typeof variantRemoval>;

/** A product image in the console, in gallery order (docs/decisions/201-console-product-images.md). */
export const consoleProductImage = z
  .strictObject({
    id: z.string(),
    /** `/{slug}/media/{name}` for an upload; whatever the catalog named for an imported image. */
    url: z.string(),
    /** Empty when nobody wrote one yet: the console flags it. */
    alt: z.string(),
    default: z.boolean(),
    /** What the upload checked; null for an imported image. */
    content_type: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    bytes: z.number().int().nullable(),
  })
  .meta({ id: 'ConsoleProductImage' });
export type ConsoleProductImage = z.infer<typeof consoleProductImage>;

/** A gift card in the console: its code is masked, except in the answer that issued it. */
export const consoleGiftCard = z
  .strictObject({
    id: z.string(),
    code: z.string(),
    balance: money,
    initial: money,
    disabled: z.boolean(),
    expires_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'ConsoleGiftCard' });
export type ConsoleGiftCard = z.infer<typeof consoleGiftCard>;

export const giftCardLedgerEntry = z
  .strictObject({
    kind: z.enum(['issue', 'redemption', 'adjustment', 'disable']),
    /** Signed: what the entry added to (or took from) the balance. */
    amount: money,
    note: z.string(),
    /** The operator; null for a redemption. */
    actor: z.string().nullable(),
    /** The order's number for a redemption. */
    order_number: z.number().int().nullable(),
    at: z.string(),
  })
  .meta({ id: 'GiftCardLedgerEntry' });
export type GiftCardLedgerEntry = z.infer<typeof giftCardLedgerEntry>;

/** A gift card with its ledger, newest first. */
export const consoleGiftCardDetail = consoleGiftCard
  .extend({ ledger: z.array(giftCardLedgerEntry) })
  .meta({ id: 'ConsoleGiftCardDetail' });
export type ConsoleGiftCardDetail = z.infer<typeof consoleGiftCardDetail>;

// ---------------------------------------------------------------- console: store settings
// (docs/decisions/203-console-store-settings.md)

/** A store's settings as the console's form shows them, in the catalog format's fields and units. */
export const consoleStoreSettings = z
  .strictObject({
    /** Sent back with a save: a save made from an older version is refused (409). */
    version: z.number().int().min(1),
    title: z.string(),
    favicon_url: z.string().nullable(),
    custom_domain: z.string().nullable(),
    /** The tax rate where no rate of `tax_rates` names the address, in basis points (825 = 8.25 %). */
    tax_rate_bps: z.number().int(),
    /** The shipping fee where no zone names the address. */
    shipping_flat: money,
    free_shipping_threshold: money.nullable(),
    tax_rates: z.array(
      z.strictObject({ country: z.string(), region: z.string().nullable(), rate_bps: z.number().int() }),
    ),
    shipping_zones: z.array(
      z.strictObject({
        name: z.string(),
        countries: z.array(z.string()),
        rate: money,
        free_shipping_threshold: money.nullable(),
      }),
    ),
    /** Sanitised HTML by kind; a kind left out has no page. */
    policies: z.partialRecord(policyKind, z.string()),
    contact_email: z.string().nullable(),
    low_stock_threshold: z.number().int().min(0),
  })
  .meta({ id: 'ConsoleStoreSettings' });
export type ConsoleStoreSettings = z.infer<typeof consoleStoreSettings>;
// ---------------------------------------------------------------- console: collections and bundles
// (docs/decisions/206-console-collections-and-bundles.md)

/** A row of the console's collection list, in the store's order. */
export const consoleCollectionSummary = z
  .strictObject({
    id: z.string(),
    handle: z.string(),
    title: z.string(),
    position: z.number().int(),
    /** How many products and bundles it holds. */
    items: z.number().int().min(0),
  })
  .meta({ id: 'ConsoleCollectionSummary' });
export type ConsoleCollectionSummary = z.infer<typeof consoleCollectionSummary>;

/** A member of a collection in the console: a product or a bundle, in the collection's order. */
export const consoleCollectionItem = z
  .strictObject({ kind: z.enum(['product', 'bundle']), id: z.string(), name: z.string() })
  .meta({ id: 'ConsoleCollectionItem' });
export type ConsoleCollectionItem = z.infer<typeof consoleCollectionItem>;

/** The console's collection page: the form's fields, its version and its members. */
export const consoleCollection = z
  .strictObject({
    id: z.string(),
    handle: z.string(),
    title: z.string(),
    /** Plain text; empty when there is none. */
    description: z.string(),
    position: z.number().int(),
    /** Sent back with a save: a save made from an older version is refused (409). */
    version: z.number().int().min(1),
    items: z.array(consoleCollectionItem),
  })
  .meta({ id: 'ConsoleCollection' });
export type ConsoleCollection = z.infer<typeof consoleCollection>;

/** A row of the console's bundle list. */
export const consoleBundleSummary = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    /** Its items' prices times their quantities. */
    price: money,
    items: z.number().int().min(0),
    featured: z.boolean(),
    position: z.number().int(),
  })
  .meta({ id: 'ConsoleBundleSummary' });
export type ConsoleBundleSummary = z.infer<typeof consoleBundleSummary>;

/** The console's bundle page: the form's fields and items, its version, and how many orders name it. */
export const consoleBundle = z
  .strictObject({
    ...listingForm,
    price: money,
    items: z.array(
      z.strictObject({
        variant_id: z.string(),
        product_id: z.string(),
        sku: z.string(),
        product_name: z.string(),
        variant_name: z.string(),
        quantity: z.number().int().min(1),
        /** The variant's price times the quantity. */
        price: money,
      }),
    ),
    /** Orders that hold it: a bundle sold is kept for their records, never deleted. */
    orders: z.number().int().min(0),
  })
  .meta({ id: 'ConsoleBundle' });
export type ConsoleBundle = z.infer<typeof consoleBundle>;

// ---------------------------------------------------------------- console: a restricted store's access lists
// (docs/decisions/204-recipients-and-domain-tokens.md)

/** Someone a restricted store lets in by the uuid of their link. */
export const allowedRecipient = z
  .strictObject({
    id: z.string(),
    email: z.string(),
    created_at: z.string(),
    /** When the console last mailed them their link; null when it never did (imported). */
    invited_at: z.string().nullable(),
  })
  .meta({ id: 'AllowedRecipient' });
export type AllowedRecipient = z.infer<typeof allowedRecipient>;

const importedRow = z.strictObject({ row: z.number(), email: z.string() });

/** What a CSV import did with each row (numbered from 1, the header included). */
export const recipientImport = z
  .strictObject({
    added: z.array(importedRow),
    already_listed: z.array(importedRow),
    /** A row repeating an address of an earlier row of the file. */
    duplicates: z.array(importedRow.extend({ first_row: z.number() })),
    invalid: z.array(z.strictObject({ row: z.number(), value: z.string(), message: z.string() })),
  })
  .meta({ id: 'RecipientImport' });
export type RecipientImport = z.infer<typeof recipientImport>;

/** A domain token as listed: the secret masked, all but its last four characters. */
export const domainToken = z
  .strictObject({ id: z.string(), token: z.string(), label: z.string(), created_at: z.string() })
  .meta({ id: 'DomainToken' });
export type DomainToken = z.infer<typeof domainToken>;

/** A new domain token, in full this once, with the store link that carries it. */
export const newDomainToken = domainToken.extend({ link: z.string() }).meta({ id: 'NewDomainToken' });
export type NewDomainToken = z.infer<typeof newDomainToken>;
