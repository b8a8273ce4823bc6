import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Address, PolicyKind } from '../../lib/contract/answers.ts';

/** jsonb: read as the parsed value, written as a JSON string (pg and PGlite agree on that). */
type Json<T> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date, Date>;

/** One row of `stores.tax_rates`: a country's rate, or one of its regions' (by the code addresses store). */
export type StoredTaxRate = { country: string; region: string | null; rate_bps: number };
/** One row of `stores.shipping_zones`; `countries` may hold `*`, every country no other zone lists. */
export type StoredShippingZone = {
  name: string;
  countries: string[];
  rate_cents: number;
  free_shipping_threshold_cents: number | null;
};

export type StoresTable = {
  id: Generated<number>;
  slug: string;
  title: string;
  description: string | null;
  favicon_url: string | null;
  /** The store front's hero image (migration 0010). */
  hero_image_url: string | null;
  custom_domain: string | null;
  restricted: boolean;
  tax_rate_bps: number;
  shipping_flat_cents: number;
  free_shipping_threshold_cents: number | null;
  /** Tax by destination (migration 0008); the rates above apply where none names the address. */
  tax_rates: ColumnType<StoredTaxRate[], string | undefined, string>;
  shipping_zones: ColumnType<StoredShippingZone[], string | undefined, string>;
  /** The store's policy pages by kind, sanitised HTML (migration 0009). */
  policies: ColumnType<Partial<Record<PolicyKind, string>>, string | undefined, string>;
  contact_email: ColumnType<string | null, string | null | undefined, string | null>;
  /** The product page says "Only N left" at or below this stock; 0 never (migration 0005). */
  low_stock_threshold: Generated<number>;
  /** Bumped by a trigger on every change of a setting the console's form shows (migration 0021). */
  settings_version: Generated<number>;
  created_at: Generated<Date>;
  /** A catalog change publishes by itself after a quiet period (migration 0025). */
  auto_publish: Generated<boolean>;
  auto_publish_quiet_seconds: Generated<number>;
  auto_publish_due_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
};

export type AllowedRecipientsTable = {
  id: string;
  store_id: number;
  email: string;
  created_at: Generated<Date>;
  /** When the console last mailed this recipient their link; null when it never did (imported). */
  invited_at: Date | null;
};

export type AllowedDomainTokensTable = {
  /** The console's handle on a token: revoking names it, never the secret itself. */
  id: Generated<string>;
  store_id: number;
  token: string;
  label: Generated<string>;
  created_at: Generated<Date>;
};

export type BrowserTokensTable = {
  store_id: number;
  token: string;
  recipient_id: string;
  verified_at: Date | null;
  created_at: Generated<Date>;
};

export type ProductsTable = {
  id: Generated<number>;
  store_id: number;
  external_id: string;
  name: string;
  description_html: string;
  featured: boolean;
  option_names: Json<string[]>;
  position: number;
  default_image_id: number | null;
  /** What search matches, written by the import (migration 0012, src/server/catalog/search-text.ts). */
  search_text: Generated<string>;
  /** Kept by triggers on its variants (migration 0015, docs/decisions/192-listing-facets.md): never written. */
  listed_price_cents: Generated<number>;
  stocked_variants: Generated<number>;
  /** `Name U+001F Value` pairs of its variants, in their order. */
  option_values: Generated<string[]>;
  /** Bumped by triggers on every change the console's edit form shows (migration 0018). */
  version: Generated<number>;
  /** Set: hidden from the storefront, kept for the orders that name it (migration 0024). */
  archived_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
};

export type ProductImagesTable = {
  id: Generated<number>;
  product_id: number;
  url: string;
  alt: string;
  position: number;
  /** Set for an image uploaded in the console (migration 0019): the sniffed type, its size; null when imported. */
  content_type: string | null;
  width: number | null;
  height: number | null;
  bytes: number | null;
  uploaded_at: Timestamp | null;
};

/** Which images show which variant (docs/decisions/193-variant-images.md). */
export type ProductImageVariantsTable = {
  image_id: number;
  variant_id: number;
};

export type ProductVariantsTable = {
  id: Generated<number>;
  product_id: number;
  store_id: number;
  sku: string;
  name: string;
  options: Json<Record<string, string>>;
  price_cents: number;
  stock: number;
  position: number;
  /** Set: no longer sold, kept for the orders that name it (migration 0024). */
  deactivated_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
};

export type BundlesTable = {
  id: Generated<number>;
  store_id: number;
  external_id: string;
  name: string;
  description_html: string;
  featured: boolean;
  position: number;
  /** What search matches, written by the import (migration 0012, src/server/catalog/search-text.ts). */
  search_text: Generated<string>;
  /** Kept by triggers on its items and their variants (migration 0015, docs/decisions/192-listing-facets.md). */
  listed_price_cents: Generated<number>;
  item_count: Generated<number>;
  short_items: Generated<number>;
  option_values: Generated<string[]>;
  /** Bumped by every change of what the console's form shows (migration 0023). */
  version: Generated<number>;
};

export type BundleItemsTable = {
  id: Generated<number>;
  bundle_id: number;
  product_variant_id: number;
  quantity: number;
  position: number;
};

/** A store's named group of products and bundles (migration 0011). */
export type CollectionsTable = {
  id: Generated<number>;
  store_id: number;
  handle: string;
  title: string;
  description: string | null;
  position: number;
  /** Bumped by every change of what the console's form shows (migration 0023). */
  version: Generated<number>;
};

/** A member of a collection: a product or a bundle, never both (migration 0011). */
export type CollectionItemsTable = {
  id: Generated<number>;
  collection_id: number;
  product_id: number | null;
  bundle_id: number | null;
  position: number;
};

export type CartsTable = {
  id: string;
  store_id: number;
  token: string;
  address: Json<Address> | null;
  payment_intent_id: string | null;
  /** Bumped each time an intent is consumed, so the next checkout gets a fresh idempotency key. */
  intent_seq: Generated<number>;
  last_order_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** When reconciliation last asked the provider about this cart's payment (migration 0007). */
  payment_checked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
};

export type CartLinesTable = {
  id: string;
  cart_id: string;
  product_variant_id: number;
  bundle_id: number | null;
  bundle_quantity: number | null;
  quantity: number;
  position: Generated<number>;
  created_at: Generated<Date>;
};

export type GiftCardsTable = {
  id: string;
  store_id: number;
  code: string;
  balance_cents: number;
  initial_cents: number;
  expires_at: Date | null;
  /** A disabled card is refused at apply and checkout (migration 0018). */
  disabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Generated<Date>;
};

export type CartGiftCardsTable = {
  cart_id: string;
  gift_card_id: string;
  applied_at: Generated<Date>;
};

export type PaymentIntentsTable = {
  id: string;
  cart_id: string;
  amount_cents: number;
  currency: string;
  status: string;
  client_secret: string;
  idempotency_key: string;
  last_error: string | null;
  refunded_cents: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
};

/** A payment that will never become an order, given back through its provider (migration 0002). */
export type PaymentReleasesTable = {
  payment_intent_id: string;
  cart_id: string;
  provider: string;
  kind: 'refund' | 'cancel';
  amount_cents: number;
  reason: string;
  /** Set once the provider confirmed; null while the provider call is still owed. */
  released_at: Date | null;
  created_at: Generated<Date>;
  /** When reconciliation last tried the provider for this release (migration 0007). */
  attempted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
};

export type OrderSnapshot = {
  cartItems: import('../../lib/contract/answers.ts').CartItem[];
  cartLineItemsSize: number;
  giftCards: import('../../lib/contract/answers.ts').GiftCard[];
  address: Address;
};

export type OrdersTable = {
  id: string;
  number: Generated<number>;
  store_id: number;
  cart_id: string;
  payment_intent_id: string | null;
  provider: string | null;
  subtotal_cents: number;
  tax_cents: number;
  shipping_cents: number;
  gift_cards_cents: number;
  total_cents: number;
  details: Json<OrderSnapshot>;
  created_at: Generated<Date>;
  /** Given back by settled refunds (migration 0017, docs/decisions/198-console-orders.md). */
  refunded_cents: Generated<number>;
  fulfilled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  carrier: ColumnType<string | null, string | null | undefined, string | null>;
  tracking_number: ColumnType<string | null, string | null | undefined, string | null>;
};
/** A gift card's share of a refund, credited back to its balance. */
export type GiftCardCredit = { gift_card_id: string; amount_cents: number };
/** An order line whose stock a refund gave back. */
export type RestockedLine = { line_id: string; variant_id: number; quantity: number };
/** One refund of an order (migration 0017): reserved first, settled once the provider gave it back. */
export type OrderRefundsTable = {
  id: Generated<number>;
  order_id: string;
  idempotency_key: string;
  amount_cents: number;
  card_cents: number;
  gift_card_credits: Json<GiftCardCredit[]>;
  restocked: Json<RestockedLine[]>;
  operator_id: number | null;
  actor: string;
  created_at: Timestamp;
  settled_at: Date | null;
  /** When the reconciliation job last asked the provider for this owed refund (migration 0026). */
  attempted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
};
/** The refunds the test processor took, by idempotency key (migration 0017). */
export type TestProcessorRefundsTable = {
  idempotency_key: string;
  payment_intent_id: string;
  amount_cents: number;
  created_at: Generated<Date>;
};

export type GiftCardDebitsTable = {
  id: Generated<number>;
  gift_card_id: string;
  order_id: string;
  amount_cents: number;
  created_at: Generated<Date>;
};

export type RateLimitsTable = {
  key: string;
  window_start: Timestamp;
  count: number;
};

/** Every mail, written in the transaction of the change it reports and delivered by the outbox worker (migration 0006). */
export type MailOutboxTable = {
  id: Generated<number>;
  kind: string;
  /** One mail per fact (`order-receipt:{order id}`); null when a fact may be mailed again (sign-in links). */
  dedupe_key: string | null;
  /** `<…@…>`, fixed at enqueue: every attempt carries the same Message-ID. */
  message_id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  locked_until: Date | null;
  lease_token: string | null;
  last_error: string | null;
  sent_at: Date | null;
  failed_at: Date | null;
  created_at: Generated<Date>;
};

/** Secrets every API instance shares, generated once (migration 0007). */
export type AppSecretsTable = {
  name: string;
  value: string;
  created_at: Generated<Date>;
};

export type WebhookEventsTable = {
  id: string;
  type: string;
  processed_at: Generated<Date>;
};

/** The console's operators and their role in each store (migration 0016, docs/decisions/197-operator-auth.md). */
export type OperatorRole = 'owner' | 'editor';

export type OperatorsTable = {
  id: Generated<number>;
  email: string;
  created_at: Generated<Date>;
};

export type StoreOperatorsTable = {
  store_id: number;
  operator_id: number;
  role: OperatorRole;
  created_at: Generated<Date>;
};

/** One-time sign-in links, by the SHA-256 of their token. */
export type OperatorSignInTokensTable = {
  token_hash: string;
  operator_id: number;
  expires_at: Timestamp;
  used_at: Date | null;
  created_at: Generated<Date>;
};

/** Console sessions, by the SHA-256 of the cookie's value. */
export type OperatorSessionsTable = {
  id_hash: string;
  operator_id: number;
  csrf_token: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Date | null;
};

/** Every console change: who, what, when, before and after. */
export type AuditLogTable = {
  id: Generated<number>;
  store_id: number;
  operator_id: number | null;
  actor: string;
  action: string;
  entity: string;
  entity_id: string | null;
  before: Json<unknown> | null;
  after: Json<unknown> | null;
  at: Timestamp;
};

/** The reason an operator gives for a stock change. */
export type StockReason = 'received' | 'correction' | 'damaged' | 'other';

/** Every stock change made in the console: relative, with a reason (migration 0018). */
export type StockAdjustmentsTable = {
  id: Generated<number>;
  store_id: number;
  product_id: number;
  variant_id: number;
  delta: number;
  stock_after: number;
  reason: StockReason;
  note: string;
  operator_id: number | null;
  actor: string;
  at: Timestamp;
};

/** What operators did to a gift card (redemptions are gift_card_debits). */
export type GiftCardEventsTable = {
  id: Generated<number>;
  gift_card_id: string;
  kind: 'issue' | 'adjustment' | 'disable';
  amount_cents: number;
  balance_after_cents: number;
  note: string;
  operator_id: number | null;
  actor: string;
  at: Timestamp;
};

/** What happened to a build (docs/decisions/208-preview-and-live-build.md). */
export type BuildStatus = 'building' | 'ready' | 'live' | 'failed' | 'rolled_back';

/** One snapshot build (docs/decisions/202-publishing-builds.md). */
export type BuildsTable = {
  id: string;
  status: BuildStatus;
  requested_by: string;
  store_id: number | null;
  started_at: Timestamp;
  finished_at: Date | null;
  pages: number | null;
  duration_ms: number | null;
  error: string | null;
  /** Pages added, changed and removed against the build that was live when it rendered (migration 0025). */
  pages_added: ColumnType<number | null, number | null | undefined, number | null>;
  pages_changed: ColumnType<number | null, number | null | undefined, number | null>;
  pages_removed: ColumnType<number | null, number | null | undefined, number | null>;
  /** When its folder was deleted (beyond BUILDS_KEPT): it can no longer be previewed or go live. */
  removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Refreshed by the process rendering it while `building` (migration 0027); null on older rows. */
  heartbeat_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
};

/** The installation's live build, one row (migration 0025); `version` grows with every switch. */
export type LiveBuildTable = {
  site: Generated<boolean>;
  build_id: string;
  previous_build_id: string | null;
  version: number;
  switched_at: Date;
};

export type Database = {
  stores: StoresTable;
  allowed_recipients: AllowedRecipientsTable;
  allowed_domain_tokens: AllowedDomainTokensTable;
  browser_tokens: BrowserTokensTable;
  products: ProductsTable;
  product_images: ProductImagesTable;
  product_image_variants: ProductImageVariantsTable;
  product_variants: ProductVariantsTable;
  bundles: BundlesTable;
  bundle_items: BundleItemsTable;
  collections: CollectionsTable;
  collection_items: CollectionItemsTable;
  carts: CartsTable;
  cart_lines: CartLinesTable;
  gift_cards: GiftCardsTable;
  cart_gift_cards: CartGiftCardsTable;
  payment_intents: PaymentIntentsTable;
  orders: OrdersTable;
  gift_card_debits: GiftCardDebitsTable;
  rate_limits: RateLimitsTable;
  mail_outbox: MailOutboxTable;
  webhook_events: WebhookEventsTable;
  payment_releases: PaymentReleasesTable;
  app_secrets: AppSecretsTable;
  operators: OperatorsTable;
  store_operators: StoreOperatorsTable;
  operator_sign_in_tokens: OperatorSignInTokensTable;
  operator_sessions: OperatorSessionsTable;
  audit_log: AuditLogTable;
  order_refunds: OrderRefundsTable;
  test_processor_refunds: TestProcessorRefundsTable;
  stock_adjustments: StockAdjustmentsTable;
  gift_card_events: GiftCardEventsTable;
  builds: BuildsTable;
  live_build: LiveBuildTable;
};

export type StoreRow = Selectable<StoresTable>;
export type CartRow = Selectable<CartsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type MailRow = Selectable<MailOutboxTable>;
export type OrderRefundRow = Selectable<OrderRefundsTable>;
