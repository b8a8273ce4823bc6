/**
 * Every operation of the commerce API: its path, what it accepts and what it answers, by status. The
 * server's routes are checked against this list (tests/api/contract.test.ts), /api/openapi.json is
 * generated from it, and the API tests check every answer they get against it
 * (docs/decisions/171-one-zod-contract.md). Paths are relative to `/api`, with `{name}` parameters.
 */
import { z } from 'zod';
import {
  allowedRecipient,
  bundle,
  bundleItem,
  cart,
  auditEntry,
  autoPublish,
  build,
  buildStarted,
  checkoutAnswer,
  collection,
  consoleBundle,
  consoleBundleSummary,
  consoleCollection,
  consoleCollectionSummary,
  consoleGiftCard,
  consoleGiftCardDetail,
  consoleOrder,
  consoleOrderSummary,
  consoleProduct,
  consoleProductImage,
  consoleProductSummary,
  consoleSession,
  consoleStoreSettings,
  devMail,
  domainToken,
  health,
  listing,
  listingPage,
  itemId,
  many,
  messageAnswer,
  newDomainToken,
  one,
  order,
  paymentIntent,
  product,
  productRemoval,
  productCollections,
  productVariant,
  policy,
  recipientImport,
  staffMember,
  storeInfo,
  variantRemoval,
  webhookReceipt,
} from './answers.ts';
import {
  addLinePayload,
  addRecipientPayload,
  addressPayload,
  auditQuery,
  bundleCreatePayload,
  bundleEditPayload,
  changeQuantityPayload,
  changeRolePayload,
  collectionCreatePayload,
  collectionEditPayload,
  collectionItemsPayload,
  confirmCardPayload,
  consoleBundlesQuery,
  consoleGiftCardsQuery,
  consoleOrdersQuery,
  consoleProductsQuery,
  customDomainQuery,
  disableGiftCardPayload,
  domainTokenPayload,
  finalizePayload,
  fulfilOrderPayload,
  giftCardAdjustmentPayload,
  giftCardPayload,
  imageUploadFields,
  inviteOperatorPayload,
  issueGiftCardPayload,
  listingQuery,
  catalogListQuery,
  searchQuery,
  outboxQuery,
  productEditPayload,
  productImageEditPayload,
  productIdsQuery,
  bundleIdsQuery,
  recipientImportFields,
  recipientsQuery,
  refundOrderPayload,
  removeGiftCardPayload,
  signInConfirmPayload,
  signInRequestPayload,
  productCreatePayload,
  productRestorePayload,
  productVariantsPayload,
  startBuildPayload,
  autoPublishPayload,
  stockAdjustmentPayload,
  storeSettingsPayload,
  variantAddPayload,
  variantRemovalQuery,
  verifyPayload,
} from './payloads.ts';
import { SHOPPER_TOKEN } from './shopper-tokens.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type Operation = {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  tag: 'Stores' | 'Catalog' | 'Cart' | 'Checkout' | 'Orders' | 'Console' | 'Webhooks' | 'Development' | 'API';
  /** Mounted only outside production (and, for the outbox, without SMTP_URL). */
  development?: true;
  query?: z.ZodObject;
  /** The JSON body; `bodyOptional` when an empty body is accepted too. */
  body?: z.ZodType;
  /** A `multipart/form-data` body instead: a binary `file` part beside these text fields. */
  upload?: z.ZodObject;
  bodyOptional?: true;
  /** Request headers the operation reads: the shopper's tokens (shopper-tokens.ts) or others. */
  headers?: z.ZodObject;
  /** Successful answers by status; null for an answer without a body (304). */
  answers: Partial<Record<number, z.ZodType | null>>;
  /** Error statuses, each answered with the Error body. */
  errors: readonly number[];
  /** Not JSON: the page or document is described in words only. */
  produces?: 'text/html' | 'text/event-stream';
};

// Every operation that reads the database answers 503 while it is unavailable (the storefront retries).
const UNAVAILABLE = 503;
/** A store's calls: unknown store or record 404, restricted without access 422 (spec §7). */
const STORE_ERRORS = [404, 422, UNAVAILABLE] as const;
/** A JSON body: malformed 400, over 64 KB 413, not labelled JSON 415, invalid 422. */
const BODY_ERRORS = [400, 413, 415, 422] as const;
/**
 * A cart call also answers 401 to a cart token the API did not issue, and 429 to a client opening too many new
 * carts (docs/decisions/111-signed-cart-tokens-and-client-addresses.md).
 */
const CART_ERRORS = [...STORE_ERRORS, ...BODY_ERRORS, 401, 429] as const;

const optional = z.string().optional();
const accessHeaders = z.object({
  [SHOPPER_TOKEN.allowedRecipientToken]: optional.meta({
    description: 'Opens a restricted store: an allowed recipient.',
  }),
  [SHOPPER_TOKEN.allowedDomainToken]: optional.meta({ description: 'Opens a restricted store: an allowed domain.' }),
  [SHOPPER_TOKEN.browserToken]: optional.meta({ description: 'Opens a restricted store: a verified browser.' }),
});
const cartHeaders = accessHeaders.extend({
  [SHOPPER_TOKEN.recipientToken]: optional.meta({
    description: "The shopper's cart token; the answer's recipient-token header hands out a new one.",
  }),
});
const catalogHeaders = accessHeaders.extend({
  'if-none-match': optional.meta({ description: "A catalog answer's ETag: 304 when it has not changed." }),
});

const catalogGet = (
  path: string,
  operationId: string,
  summary: string,
  answer: z.ZodType,
  query?: z.ZodObject,
): Operation => ({
  method: 'get',
  path,
  operationId,
  summary,
  tag: 'Catalog',
  headers: catalogHeaders,
  ...(query ? { query } : {}),
  answers: { 200: answer, 304: null },
  errors: STORE_ERRORS,
});

const cartCall = (
  method: Method,
  path: string,
  operationId: string,
  summary: string,
  parts: Pick<Operation, 'body' | 'bodyOptional' | 'answers'> & { tag?: Operation['tag']; errors?: readonly number[] },
): Operation => ({
  method,
  path,
  operationId,
  summary,
  tag: parts.tag ?? 'Cart',
  headers: cartHeaders,
  ...(parts.body ? { body: parts.body } : {}),
  ...(parts.bodyOptional ? { bodyOptional: true } : {}),
  answers: parts.answers,
  errors: [...CART_ERRORS, ...(parts.errors ?? [])],
});

const S = '/store_front/{slug}';

// ---------------------------------------------------------------- console (docs/decisions/197-operator-auth.md)

const consoleHeaders = z.object({
  cookie: optional.meta({ description: 'The console session: `admin_session` (HttpOnly, SameSite=Strict).' }),
  origin: optional.meta({ description: 'Required on writes: the API’s own origin or PUBLIC_SITE_URL’s.' }),
  'x-csrf-token': optional.meta({
    description: 'Required on signed-in writes: the session’s `csrf_token` (from sign-in or `GET /admin/me`).',
  }),
});
/** Signed out or session ended 401; cross-origin write or missing CSRF token 403. */
const SESSION_ERRORS = [401, 403, UNAVAILABLE] as const;
/** A store's console calls also answer 404 for a store the operator has no role in, as for one that does not exist. */
const CONSOLE_STORE_ERRORS = [...SESSION_ERRORS, 404] as const;

const consoleCall = (
  method: Method,
  path: string,
  operationId: string,
  summary: string,
  parts: Pick<Operation, 'body' | 'bodyOptional' | 'upload' | 'query' | 'answers'> & { errors?: readonly number[] },
): Operation => ({
  method,
  path: `/admin${path}`,
  operationId,
  summary,
  tag: 'Console',
  headers: consoleHeaders,
  ...(parts.body ? { body: parts.body } : {}),
  ...(parts.bodyOptional ? { bodyOptional: true } : {}),
  ...(parts.upload ? { upload: parts.upload } : {}),
  ...(parts.query ? { query: parts.query } : {}),
  answers: parts.answers,
  errors: [...(parts.body ? BODY_ERRORS : []), ...(parts.errors ?? SESSION_ERRORS)],
});

const A = '/stores/{slug}';

// Publishing (docs/decisions/202-publishing-builds.md): a script's bearer token, or a console session.
const tokenHeaders = consoleHeaders.extend({
  authorization: optional.meta({
    description: '`Bearer` and the build token (REBUILD_TOKEN or `builds/.rebuild-token`).',
  }),
});
/** No token or session 401; a session's write from elsewhere 403; the API running alone 503. */
const TOKEN_ERRORS = [401, 403, UNAVAILABLE] as const;
const tokenCall = (
  method: Method,
  path: string,
  operationId: string,
  summary: string,
  parts: Pick<Operation, 'answers' | 'errors' | 'produces' | 'body' | 'bodyOptional'>,
): Operation => ({
  method,
  path: `/admin${path}`,
  operationId,
  summary,
  tag: 'Console',
  headers: tokenHeaders,
  ...parts,
});

/** Every console operation; the API tests walk this list with another store's operator. */
export const CONSOLE_OPERATIONS: readonly Operation[] = [
  consoleCall(
    'post',
    '/sign_in',
    'requestConsoleSignIn',
    'Mails a one-time sign-in link (15 minutes) to an operator; the same answer for any address.',
    { body: signInRequestPayload, answers: { 202: messageAnswer }, errors: [403, 429, UNAVAILABLE] },
  ),
  consoleCall(
    'post',
    '/sign_in/confirm',
    'confirmConsoleSignIn',
    'Spends a sign-in link’s token once and opens a session (Set-Cookie).',
    { body: signInConfirmPayload, answers: { 200: consoleSession }, errors: [403, UNAVAILABLE] },
  ),
  consoleCall('get', '/me', 'getConsoleSession', 'The signed-in operator: stores, roles and the CSRF token.', {
    answers: { 200: consoleSession },
  }),
  consoleCall('post', '/sign_out', 'signOutOfConsole', 'Ends this session.', { answers: { 200: messageAnswer } }),
  consoleCall('post', '/sign_out_everywhere', 'signOutOfConsoleEverywhere', 'Ends every session of this operator.', {
    answers: { 200: messageAnswer },
  }),
  consoleCall('get', `${A}/staff`, 'listStaff', 'The store’s operators and their roles (owners only).', {
    answers: { 200: many(staffMember) },
    errors: CONSOLE_STORE_ERRORS,
  }),
  consoleCall(
    'post',
    `${A}/staff`,
    'inviteStaff',
    'Gives someone a role in the store and mails them a sign-in link (owners only).',
    {
      body: inviteOperatorPayload,
      answers: { 201: one(staffMember) },
      errors: [...CONSOLE_STORE_ERRORS, 409],
    },
  ),
  consoleCall(
    'patch',
    `${A}/staff/{id}`,
    'changeStaffRole',
    'Changes a staff member’s role; a store keeps one owner (owners only).',
    {
      body: changeRolePayload,
      answers: { 200: one(staffMember) },
      errors: [...CONSOLE_STORE_ERRORS, 409],
    },
  ),
  consoleCall(
    'delete',
    `${A}/staff/{id}`,
    'removeStaff',
    'Takes a staff member’s role away; a store keeps one owner (owners only).',
    {
      answers: { 200: messageAnswer },
      errors: [...CONSOLE_STORE_ERRORS, 409],
    },
  ),
  consoleCall('get', `${A}/audit`, 'listAuditLog', 'The store’s changes, newest first, 50 a page (owners only).', {
    query: auditQuery,
    answers: { 200: many(auditEntry) },
    errors: [...CONSOLE_STORE_ERRORS, 422],
  }),
  // Store settings, owners only (docs/decisions/203-console-store-settings.md).
  consoleCall('get', `${A}/settings`, 'getStoreSettings', 'The store’s settings and their version (owners only).', {
    answers: { 200: one(consoleStoreSettings) },
    errors: CONSOLE_STORE_ERRORS,
  }),
  consoleCall(
    'put',
    `${A}/settings`,
    'saveStoreSettings',
    'Saves every setting by the catalog import’s rules (policies sanitised); 409 when saved from an older version or the domain is another store’s (owners only).',
    { body: storeSettingsPayload, answers: { 200: one(consoleStoreSettings) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall(
    'post',
    `${A}/settings/favicon`,
    'uploadStoreFavicon',
    'Uploads a square favicon (PNG, JPEG, WebP or AVIF, told by its bytes, 16 px or more) and makes it the store’s; over MEDIA_MAX_UPLOAD_MB is 413 (owners only).',
    {
      upload: z.object({}),
      answers: { 201: one(consoleStoreSettings) },
      errors: [...CONSOLE_STORE_ERRORS, 413, 422],
    },
  ),
  // Catalog and gift cards, owners and editors (docs/decisions/199-console-catalog-and-gift-cards.md).
  consoleCall(
    'get',
    `${A}/products`,
    'listConsoleProducts',
    'The store’s products, 25 a page; `q` matches names and SKUs.',
    {
      query: consoleProductsQuery,
      answers: { 200: many(consoleProductSummary) },
      errors: [...CONSOLE_STORE_ERRORS, 422],
    },
  ),
  consoleCall('get', `${A}/products/{id}`, 'getConsoleProduct', 'A product’s edit form, its version and stock log.', {
    answers: { 200: one(consoleProduct) },
    errors: CONSOLE_STORE_ERRORS,
  }),
  consoleCall(
    'patch',
    `${A}/products/{id}`,
    'updateConsoleProduct',
    'Saves the edit form (description sanitised as the import does); 409 when saved from an older version.',
    { body: productEditPayload, answers: { 200: one(consoleProduct) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall(
    'post',
    `${A}/products/{id}/stock_adjustments`,
    'adjustConsoleStock',
    'Changes a variant’s stock by a relative amount with a reason; never below zero.',
    { body: stockAdjustmentPayload, answers: { 201: one(consoleProduct) }, errors: CONSOLE_STORE_ERRORS },
  ),
  // Creating and removing products, options and variants (docs/decisions/207-product-editor.md).
  consoleCall(
    'post',
    `${A}/products`,
    'createConsoleProduct',
    'Creates a product with its first variant (SKU new in the store, a value for each option); its starting stock is logged.',
    { body: productCreatePayload, answers: { 201: one(consoleProduct) }, errors: CONSOLE_STORE_ERRORS },
  ),
  consoleCall(
    'delete',
    `${A}/products/{id}`,
    'removeConsoleProduct',
    'Removes a product: deleted when nothing names it, archived (hidden, kept) when orders or carts do; 409 when a bundle holds it or saved from an older version.',
    {
      query: variantRemovalQuery,
      answers: { 200: productRemoval },
      errors: [...CONSOLE_STORE_ERRORS, 409, 422],
    },
  ),
  consoleCall(
    'post',
    `${A}/products/{id}/restore`,
    'restoreConsoleProduct',
    'Puts an archived product back on sale; 409 when it is on sale already or saved from an older version.',
    { body: productRestorePayload, answers: { 200: one(consoleProduct) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall(
    'put',
    `${A}/products/{id}/variants`,
    'saveConsoleProductVariants',
    'Saves the product’s option names with every variant’s SKU, name and option values at once; 409 when saved from an older version.',
    {
      body: productVariantsPayload,
      answers: { 200: one(consoleProduct) },
      errors: [...CONSOLE_STORE_ERRORS, 409],
    },
  ),
  consoleCall(
    'post',
    `${A}/products/{id}/variants`,
    'addConsoleProductVariant',
    'Adds a variant (SKU new in the store, a value for each option, a combination of its own); its starting stock is logged.',
    {
      body: variantAddPayload,
      answers: { 201: one(consoleProduct) },
      errors: [...CONSOLE_STORE_ERRORS, 409],
    },
  ),
  consoleCall(
    'delete',
    `${A}/products/{id}/variants/{variant_id}`,
    'removeConsoleProductVariant',
    'Removes a variant: deleted when nothing names it, deactivated (off sale, kept) when orders or carts do; 409 for the last one or one in a bundle.',
    {
      query: variantRemovalQuery,
      answers: { 200: variantRemoval },
      errors: [...CONSOLE_STORE_ERRORS, 409, 422],
    },
  ),
  consoleCall(
    'post',
    `${A}/products/{id}/variants/{variant_id}/restore`,
    'restoreConsoleProductVariant',
    'Puts a deactivated variant back on sale, with no stock; 409 when it is on sale already, no longer fits the product’s options or another variant has its values, or saved from an older version.',
    {
      // The product's version, as for the product's own restore.
      body: productRestorePayload,
      answers: { 200: one(consoleProduct) },
      errors: [...CONSOLE_STORE_ERRORS, 409, 422],
    },
  ),
  // Product images (docs/decisions/201-console-product-images.md).
  consoleCall('get', `${A}/products/{id}/images`, 'listConsoleProductImages', 'A product’s images, in gallery order.', {
    answers: { 200: many(consoleProductImage) },
    errors: CONSOLE_STORE_ERRORS,
  }),
  consoleCall(
    'post',
    `${A}/products/{id}/images`,
    'uploadConsoleProductImage',
    'Uploads one image (JPEG, PNG, WebP or AVIF, told by its bytes) to the end of the gallery; over MEDIA_MAX_UPLOAD_MB is 413.',
    {
      upload: imageUploadFields,
      answers: { 201: one(consoleProductImage) },
      errors: [...CONSOLE_STORE_ERRORS, 413, 422],
    },
  ),
  consoleCall(
    'patch',
    `${A}/products/{id}/images/{image_id}`,
    'updateConsoleProductImage',
    'Changes an image’s alt text or place in the gallery, or makes it the default; answers the gallery.',
    { body: productImageEditPayload, answers: { 200: many(consoleProductImage) }, errors: CONSOLE_STORE_ERRORS },
  ),
  consoleCall(
    'delete',
    `${A}/products/{id}/images/{image_id}`,
    'deleteConsoleProductImage',
    'Deletes an image (and its uploaded file when nothing else shows it); answers the gallery.',
    { answers: { 200: many(consoleProductImage) }, errors: CONSOLE_STORE_ERRORS },
  ),
  // Collections and bundles (docs/decisions/206-console-collections-and-bundles.md).
  consoleCall('get', `${A}/collections`, 'listConsoleCollections', 'The store’s collections, in its order.', {
    answers: { 200: many(consoleCollectionSummary) },
    errors: CONSOLE_STORE_ERRORS,
  }),
  consoleCall(
    'post',
    `${A}/collections`,
    'createConsoleCollection',
    'Creates a collection; its handle is unique in the store (422); without a position it goes last.',
    { body: collectionCreatePayload, answers: { 201: one(consoleCollection) }, errors: CONSOLE_STORE_ERRORS },
  ),
  consoleCall(
    'get',
    `${A}/collections/{id}`,
    'getConsoleCollection',
    'A collection’s edit form, version and members.',
    {
      answers: { 200: one(consoleCollection) },
      errors: CONSOLE_STORE_ERRORS,
    },
  ),
  consoleCall(
    'patch',
    `${A}/collections/{id}`,
    'updateConsoleCollection',
    'Saves a collection’s handle, title, description and position; 409 when saved from an older version.',
    { body: collectionEditPayload, answers: { 200: one(consoleCollection) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall(
    'put',
    `${A}/collections/{id}/items`,
    'setConsoleCollectionItems',
    'Sets a collection’s products and bundles in their order (adds, removes, reorders); 409 when saved from an older version.',
    { body: collectionItemsPayload, answers: { 200: one(consoleCollection) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall(
    'delete',
    `${A}/collections/{id}`,
    'deleteConsoleCollection',
    'Deletes a collection; its products and bundles stay in the store.',
    { answers: { 200: messageAnswer }, errors: CONSOLE_STORE_ERRORS },
  ),
  consoleCall('get', `${A}/bundles`, 'listConsoleBundles', 'The store’s bundles, 25 a page; `q` matches names.', {
    query: consoleBundlesQuery,
    answers: { 200: many(consoleBundleSummary) },
    errors: [...CONSOLE_STORE_ERRORS, 422],
  }),
  consoleCall(
    'post',
    `${A}/bundles`,
    'createConsoleBundle',
    'Creates a bundle of the store’s variants with quantities; without a position it goes last.',
    { body: bundleCreatePayload, answers: { 201: one(consoleBundle) }, errors: CONSOLE_STORE_ERRORS },
  ),
  consoleCall('get', `${A}/bundles/{id}`, 'getConsoleBundle', 'A bundle’s edit form, items, version and orders.', {
    answers: { 200: one(consoleBundle) },
    errors: CONSOLE_STORE_ERRORS,
  }),
  consoleCall(
    'patch',
    `${A}/bundles/{id}`,
    'updateConsoleBundle',
    'Saves a bundle and its items (description sanitised as the import does); 409 when saved from an older version.',
    { body: bundleEditPayload, answers: { 200: one(consoleBundle) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall(
    'delete',
    `${A}/bundles/{id}`,
    'deleteConsoleBundle',
    'Deletes a bundle no order holds; 409 once an order holds it.',
    { answers: { 200: messageAnswer }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall('get', `${A}/gift_cards`, 'listConsoleGiftCards', 'The store’s gift cards, newest first, codes masked.', {
    query: consoleGiftCardsQuery,
    answers: { 200: many(consoleGiftCard) },
    errors: [...CONSOLE_STORE_ERRORS, 422],
  }),
  consoleCall(
    'post',
    `${A}/gift_cards`,
    'issueConsoleGiftCard',
    'Issues a gift card with a random code, answered in full this once.',
    { body: issueGiftCardPayload, answers: { 201: one(consoleGiftCard) }, errors: CONSOLE_STORE_ERRORS },
  ),
  consoleCall('get', `${A}/gift_cards/{id}`, 'getConsoleGiftCard', 'A gift card’s balance and ledger, newest first.', {
    answers: { 200: one(consoleGiftCardDetail) },
    errors: CONSOLE_STORE_ERRORS,
  }),
  consoleCall(
    'post',
    `${A}/gift_cards/{id}/adjustments`,
    'adjustConsoleGiftCard',
    'Changes a gift card’s balance by a relative amount with a note; never below zero.',
    {
      body: giftCardAdjustmentPayload,
      answers: { 200: one(consoleGiftCardDetail) },
      errors: [...CONSOLE_STORE_ERRORS, 409],
    },
  ),
  consoleCall(
    'post',
    `${A}/gift_cards/{id}/disable`,
    'disableConsoleGiftCard',
    'Disables a gift card: applying it and checking out with it are refused.',
    {
      body: disableGiftCardPayload,
      answers: { 200: one(consoleGiftCardDetail) },
      errors: [...CONSOLE_STORE_ERRORS, 409],
    },
  ),
  // Orders, owners and editors; refunds owners only (docs/decisions/198-console-orders.md).
  consoleCall(
    'get',
    `${A}/orders`,
    'listConsoleOrders',
    'The store’s orders, newest first, 25 a page: search (number, email, name), status, date range, email, number.',
    { query: consoleOrdersQuery, answers: { 200: many(consoleOrderSummary) }, errors: [...CONSOLE_STORE_ERRORS, 422] },
  ),
  consoleCall(
    'get',
    `${A}/orders/{id}`,
    'getConsoleOrder',
    'One order: lines and their variants, amounts, payment, gift cards, address, refunds, history.',
    { answers: { 200: one(consoleOrder) }, errors: CONSOLE_STORE_ERRORS },
  ),
  consoleCall(
    'post',
    `${A}/orders/{id}/refunds`,
    'refundConsoleOrder',
    'Refunds part or all of the order (card first, then gift cards), restocking chosen lines; once per idempotency_key (owners only).',
    {
      body: refundOrderPayload,
      answers: { 201: one(consoleOrder) },
      // 409: a deadlock or serialization failure rolled it back whole; the same request again is safe.
      errors: [...CONSOLE_STORE_ERRORS, 409, 502],
    },
  ),
  consoleCall(
    'post',
    `${A}/orders/{id}/refunds/{refund_id}/retry`,
    'retryConsoleRefund',
    'Asks the payment provider again for a refund it has not confirmed, and settles it; never a second refund (owners only).',
    { answers: { 200: one(consoleOrder) }, errors: [...CONSOLE_STORE_ERRORS, 409, 502] },
  ),
  consoleCall(
    'post',
    `${A}/orders/{id}/fulfillment`,
    'fulfilConsoleOrder',
    'Marks the order fulfilled with carrier and tracking number and mails the shopper.',
    { body: fulfilOrderPayload, answers: { 200: one(consoleOrder) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  // A restricted store's access lists, owners only; 409 on a public store
  // (docs/decisions/204-recipients-and-domain-tokens.md).
  consoleCall(
    'get',
    `${A}/recipients`,
    'listRecipients',
    'The restricted store’s allowed recipients by address, 25 a page; `q` matches part of an address (owners only).',
    { query: recipientsQuery, answers: { 200: many(allowedRecipient) }, errors: [...CONSOLE_STORE_ERRORS, 409, 422] },
  ),
  consoleCall(
    'post',
    `${A}/recipients`,
    'addRecipient',
    'Lists an address with a new uuid and mails it the store link carrying that uuid; invitations are rate limited (owners only).',
    { body: addRecipientPayload, answers: { 201: one(allowedRecipient) }, errors: [...CONSOLE_STORE_ERRORS, 409, 429] },
  ),
  consoleCall(
    'post',
    `${A}/recipients/import`,
    'importRecipients',
    'Lists every valid address of a CSV file (one a row, header optional) and reports each row: added, already listed, repeated or invalid; mails nobody (owners only).',
    {
      upload: recipientImportFields,
      answers: { 200: one(recipientImport) },
      errors: [...CONSOLE_STORE_ERRORS, 409, 413, 422],
    },
  ),
  consoleCall(
    'post',
    `${A}/recipients/{id}/invitation`,
    'reinviteRecipient',
    'Mails a listed recipient their link again; rate limited (owners only).',
    { answers: { 200: one(allowedRecipient) }, errors: [...CONSOLE_STORE_ERRORS, 409, 429] },
  ),
  consoleCall(
    'delete',
    `${A}/recipients/{id}`,
    'removeRecipient',
    'Takes a recipient off the list: their link and the browsers they verified stop opening the store at once (owners only).',
    { answers: { 200: messageAnswer }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall(
    'get',
    `${A}/domain_tokens`,
    'listDomainTokens',
    'The restricted store’s domain tokens, newest first, masked (owners only).',
    { answers: { 200: many(domainToken) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall(
    'post',
    `${A}/domain_tokens`,
    'createDomainToken',
    'Makes a random domain token, answered in full this once with the store link carrying it (owners only).',
    { body: domainTokenPayload, answers: { 201: one(newDomainToken) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  consoleCall(
    'delete',
    `${A}/domain_tokens/{id}`,
    'revokeDomainToken',
    'Revokes a domain token: it stops opening the store at once (owners only).',
    { answers: { 200: messageAnswer }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
  tokenCall(
    'post',
    '/builds',
    'startBuild',
    'Starts a build of every public store’s pages (bearer token) that goes live when rendered, or with `go_live: false` stays `ready` to preview; it re-renders only the pages a change touches unless `full: true`; 409 names the build already running.',
    {
      body: startBuildPayload,
      bodyOptional: true,
      answers: { 202: one(buildStarted) },
      errors: [...BODY_ERRORS, ...TOKEN_ERRORS, 409],
    },
  ),
  tokenCall('get', '/builds/{id}', 'getBuild', 'A build’s record (bearer token or session).', {
    answers: { 200: one(build) },
    errors: [...TOKEN_ERRORS, 404],
  }),
  tokenCall(
    'get',
    '/builds/{id}/events',
    'followBuild',
    'Server-Sent Events of a build: `progress` {done, total, elapsed_ms, eta_ms}, then `done` or `failed` with its record.',
    { answers: { 200: null }, errors: [...TOKEN_ERRORS, 404], produces: 'text/event-stream' },
  ),
  tokenCall(
    'post',
    '/builds/{id}/live',
    'goLiveWithToken',
    'Makes a kept build (`ready` or `rolled_back`) the live one, atomically, on every instance (bearer token); 409 when it is live already or no longer kept.',
    { answers: { 200: one(build) }, errors: [...TOKEN_ERRORS, 404, 409] },
  ),
  consoleCall(
    'post',
    `${A}/builds`,
    'publishStore',
    'Starts a build of every public store’s pages from this store’s console, live when rendered or with `go_live: false` `ready` to preview; it re-renders only the pages a change touches unless `full: true`; 409 names the build already running.',
    {
      body: startBuildPayload,
      bodyOptional: true,
      answers: { 202: one(buildStarted) },
      errors: [...CONSOLE_STORE_ERRORS, 409],
    },
  ),
  consoleCall(
    'get',
    `${A}/builds`,
    'listStoreBuilds',
    'The last 20 builds asked from this store or by the token and command line, newest first.',
    {
      answers: { 200: many(build) },
      errors: CONSOLE_STORE_ERRORS,
    },
  ),
  consoleCall('get', `${A}/auto_publish`, 'getAutoPublish', 'The store’s auto-publish setting.', {
    answers: { 200: one(autoPublish) },
    errors: CONSOLE_STORE_ERRORS,
  }),
  consoleCall(
    'put',
    `${A}/auto_publish`,
    'setAutoPublish',
    'Turns auto-publish on or off: a catalog change of the console publishes by itself after `quiet_seconds` (5–3600) without another change (audited as `store.auto_publish`).',
    { body: autoPublishPayload, answers: { 200: one(autoPublish) }, errors: CONSOLE_STORE_ERRORS },
  ),
  consoleCall(
    'get',
    `${A}/builds/{id}`,
    'getStoreBuild',
    'One build of this store’s history (the front asks it before answering a preview).',
    { answers: { 200: one(build) }, errors: CONSOLE_STORE_ERRORS },
  ),
  consoleCall(
    'post',
    `${A}/builds/{id}/live`,
    'goLive',
    'Makes a kept build of this store’s history the live one, atomically, on every instance; going back to an older build is a rollback (audited as `build.rollback`, else `build.go_live`); 409 when it is live already or no longer kept.',
    { answers: { 200: one(build) }, errors: [...CONSOLE_STORE_ERRORS, 409] },
  ),
];

const LISTED: readonly Operation[] = [
  {
    method: 'get',
    path: '/health',
    operationId: 'health',
    summary: 'The API process is up.',
    tag: 'API',
    answers: { 200: health },
    errors: [],
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
    summary: 'This description of the API (OpenAPI 3.1).',
    tag: 'API',
    answers: { 200: z.looseObject({ openapi: z.literal('3.1.0') }) },
    errors: [],
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'apiReference',
    summary: 'A reference page of this description, readable in a browser.',
    tag: 'API',
    answers: { 200: null },
    errors: [],
    produces: 'text/html',
  },
  {
    method: 'get',
    path: '/store_front',
    operationId: 'getStoreByDomain',
    summary: 'The store served on a custom domain (spec §7).',
    tag: 'Stores',
    query: customDomainQuery,
    headers: accessHeaders,
    answers: { 200: storeInfo },
    errors: STORE_ERRORS,
  },
  catalogGet(S, 'getStore', 'A store by its slug (spec §7).', storeInfo),
  catalogGet(
    `${S}/policies/{kind}`,
    'getPolicy',
    'One of the store’s policy pages (shipping, returns, privacy, terms).',
    policy,
  ),
  {
    method: 'post',
    path: `${S}/allowed_users/verify`,
    operationId: 'verifyAllowedUser',
    summary: 'Mails a sign-in link to an address on the store’s allowed list; the same answer either way.',
    tag: 'Stores',
    body: verifyPayload,
    answers: { 202: messageAnswer },
    errors: [...STORE_ERRORS, ...BODY_ERRORS, 429],
  },
  catalogGet(
    `${S}/products`,
    'listProducts',
    'A page of the store’s products (with `fields=id`, their ids alone).',
    z.union([many(product), many(itemId('product'))]),
    catalogListQuery,
  ),
  catalogGet(
    `${S}/listings`,
    'listListings',
    'A page of the store’s products and bundles, filtered (in stock, price range, option values, with the counts of each) and sorted together (the shop’s list).',
    listingPage(listing),
    listingQuery,
  ),
  catalogGet(`${S}/collections`, 'listCollections', 'The store’s collections, in its order.', many(collection)),
  catalogGet(`${S}/collections/{handle}`, 'getCollection', 'One collection, by its handle.', one(collection)),
  catalogGet(
    `${S}/collections/{handle}/listings`,
    'listCollectionListings',
    'A page of one collection’s products and bundles, filtered, sorted and paged like the shop’s list.',
    listingPage(listing),
    listingQuery,
  ),
  catalogGet(
    `${S}/search`,
    'searchListings',
    'The store’s products and bundles matching words of their name, description, SKU or options, in any order and with one typo per word; best match first unless sorted (extension).',
    listingPage(listing),
    searchQuery,
  ),
  catalogGet(`${S}/products/{id}`, 'getProduct', 'One product.', one(product)),
  catalogGet(
    `${S}/products/{id}/product_variants`,
    'listProductVariants',
    'The variants of one product.',
    many(productVariant),
  ),
  catalogGet(
    `${S}/products/{id}/collections`,
    'listProductCollections',
    'The collections one product is in, in the store’s order (extension).',
    many(collection),
  ),
  catalogGet(
    `${S}/product_variants`,
    'listVariantsOfProducts',
    'The variants of many products in one call, one product after the other in the order asked (extension).',
    many(productVariant),
    productIdsQuery,
  ),
  catalogGet(
    `${S}/product_collections`,
    'listCollectionsOfProducts',
    'The collections of many products in one call: each product on sale asked for, in id order, with its collections as its own collections call lists them (extension).',
    many(productCollections),
    productIdsQuery,
  ),
  catalogGet(
    `${S}/bundles`,
    'listBundles',
    'A page of the store’s bundles (with `fields=id`, their ids alone).',
    z.union([many(bundle), many(itemId('bundle'))]),
    catalogListQuery,
  ),
  catalogGet(`${S}/bundles/{id}`, 'getBundle', 'One bundle.', one(bundle)),
  catalogGet(`${S}/bundles/{id}/bundle_items`, 'listBundleItems', 'The items of one bundle.', many(bundleItem)),
  catalogGet(
    `${S}/bundle_items`,
    'listItemsOfBundles',
    'The items of many bundles in one call, one bundle after the other in the order asked (extension).',
    many(bundleItem),
    bundleIdsQuery,
  ),
  cartCall('get', `${S}/cart`, 'getCart', 'The shopper’s cart (empty without a cart token).', {
    answers: { 200: cart },
  }),
  cartCall('put', `${S}/cart`, 'setCartAddress', 'Saves the contact and shipping address.', {
    body: addressPayload,
    answers: { 200: cart },
  }),
  cartCall('post', `${S}/cart/cart_line_items`, 'addCartLine', 'Adds a variant or a bundle to the cart.', {
    body: addLinePayload,
    answers: { 201: cart },
  }),
  cartCall(
    'patch',
    `${S}/cart/cart_line_items/{id}`,
    'changeCartLineQuantity',
    'Changes a line’s quantity (on a bundle line, the whole bundle’s).',
    { body: changeQuantityPayload, answers: { 200: cart } },
  ),
  cartCall('delete', `${S}/cart/cart_line_items/{id}`, 'removeCartLine', 'Removes a line (a bundle whole).', {
    answers: { 200: cart },
  }),
  cartCall('post', `${S}/gift_cards/apply`, 'applyGiftCard', 'Applies a gift card to the cart.', {
    body: giftCardPayload,
    answers: { 200: cart },
  }),
  cartCall('post', `${S}/gift_cards/{id}/remove`, 'removeGiftCard', 'Takes a gift card off the cart.', {
    body: removeGiftCardPayload,
    bodyOptional: true,
    answers: { 200: cart },
  }),
  cartCall(
    'post',
    `${S}/cart/checkout`,
    'checkout',
    'Opens (or reuses) the payment for the cart’s total; no payment when gift cards cover it.',
    { tag: 'Checkout', answers: { 200: checkoutAnswer }, errors: [409, 502] },
  ),
  cartCall(
    'post',
    `${S}/cart/finalize`,
    'finalize',
    'Places the order of a paid cart, once per payment; a lost race refunds the payment.',
    {
      tag: 'Checkout',
      body: finalizePayload,
      bodyOptional: true,
      answers: { 200: order },
      // 402: the payment has not succeeded (declined, or not confirmed yet).
      errors: [402, 409, 502],
    },
  ),
  {
    method: 'get',
    path: '/cart/{order_uuid}',
    operationId: 'getOrder',
    summary: 'An order by its random id (the id is what grants reading it).',
    tag: 'Orders',
    headers: accessHeaders,
    answers: { 200: order },
    errors: STORE_ERRORS,
  },
  ...CONSOLE_OPERATIONS,
  {
    method: 'post',
    path: '/webhooks/stripe',
    operationId: 'stripeWebhook',
    summary: 'Stripe’s signed events: finalizes the order of a payment whose browser went away.',
    tag: 'Webhooks',
    headers: z.object({ 'stripe-signature': z.string() }),
    body: z.looseObject({ id: z.string(), type: z.string() }),
    answers: { 200: webhookReceipt },
    errors: [400, 413, UNAVAILABLE],
  },
  {
    method: 'post',
    path: '/test_processor/payment_intents/{id}/confirm',
    operationId: 'confirmTestPayment',
    summary: 'The test card processor: the development stand-in for Stripe.js confirmCardPayment.',
    tag: 'Development',
    development: true,
    body: confirmCardPayload,
    answers: { 200: paymentIntent },
    errors: [...BODY_ERRORS, 402, 404, UNAVAILABLE],
  },
  {
    method: 'get',
    path: '/dev/outbox',
    operationId: 'devOutbox',
    summary: 'The latest mails to one address, newest first: mail that never leaves the machine.',
    tag: 'Development',
    development: true,
    query: outboxQuery,
    answers: { 200: z.strictObject({ data: z.array(devMail) }) },
    errors: [422, UNAVAILABLE],
  },
];

/** A NUL character anywhere in the URL is refused with 400 before any route runs. */
const ANY_URL_ERRORS = [400] as const;

export const OPERATIONS: readonly Operation[] = LISTED.map((operation) => ({
  ...operation,
  errors: [...new Set([...ANY_URL_ERRORS, ...operation.errors])].sort((a, b) => a - b),
}));

/** `/store_front/{slug}/cart` → a pattern matching `/store_front/acme/cart` and nothing longer. */
export function operationPattern(path: string): RegExp {
  const literal = (part: string) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${path
      .split(/\{[a-z_]+\}/)
      .map(literal)
      .join('[^/]+')}$`,
  );
}

/** The operation a request is for, by method and path (relative to /api, without the query). */
export function findOperation(method: string, path: string): Operation | undefined {
  const lower = method.toLowerCase();
  return OPERATIONS.find((operation) => operation.method === lower && operationPattern(operation.path).test(path));
}
