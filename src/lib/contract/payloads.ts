/**
 * What the commerce API accepts (spec §7): request bodies and query strings as zod schemas. The
 * server validates with them (src/server/http/validation.ts turns their messages into the spec's
 * errors map), the storefront's request types are their inputs, and /api/openapi.json documents them
 * (docs/decisions/171-one-zod-contract.md). Messages follow spec §5's defaults.
 */
import { z } from 'zod';
import { SLUG_PATTERN } from '../slug.ts';
import {
  MAX_VARIANT_STOCK,
  optionName,
  optionProblems,
  optionValue,
  sameCombination,
  VARIANT_MESSAGES,
  variantName,
  variantSku,
} from '../catalog/variant-rules.ts';
import { MAX_BULK_IDS, MAX_QUANTITY } from './limits.ts';
import { storeSettingsFields } from './store-settings.ts';

export const QUANTITY_MESSAGE = `Quantity must be a whole number from 1 to ${MAX_QUANTITY}.`;

const quantity = z
  .number({ error: QUANTITY_MESSAGE })
  .int({ error: QUANTITY_MESSAGE })
  .min(1, { error: QUANTITY_MESSAGE })
  .max(MAX_QUANTITY, { error: QUANTITY_MESSAGE });

/** Record ids arrive as strings (as answers give them) or numbers; both name the same row. */
const recordId = (what: string) =>
  z
    .union([z.string().regex(/^[1-9]\d{0,8}$/), z.number().int().min(1).max(2_147_483_647)], {
      error: `${what} is not valid.`,
    })
    .transform(Number);

// ---------------------------------------------------------------- cart

/** `{"cart_line_item":{"product_variant_id":ID,"quantity":N}}` or `{"cart_line_item":{"bundle_id":ID,"quantity":N}}`. */
export const addLinePayload = z
  .object({
    cart_line_item: z
      .object(
        {
          product_variant_id: recordId('Product variant').optional(),
          bundle_id: recordId('Bundle').optional(),
          quantity,
        },
        { error: 'Cart line item is required.' },
      )
      .refine((line) => (line.product_variant_id === undefined) !== (line.bundle_id === undefined), {
        message: 'Choose either a product variant or a bundle.',
        path: ['product_variant_id'],
      }),
  })
  .meta({ id: 'AddLinePayload', description: 'Either product_variant_id or bundle_id, with a quantity.' });
export type AddLinePayload = z.input<typeof addLinePayload>;

/** On a bundle line the quantity moves the whole bundle. */
export const changeQuantityPayload = z
  .object({ cart_line_item: z.object({ quantity }, { error: 'Cart line item is required.' }) })
  .meta({ id: 'ChangeQuantityPayload' });
export type ChangeQuantityPayload = z.input<typeof changeQuantityPayload>;

const required = (name: string, max = 100) =>
  z
    .string({ error: `${name} is required.` })
    .trim()
    .min(1, `${name} is required.`)
    .max(max, `${name} must be at most ${max} characters.`);

const email = z
  .string({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Please enter a valid email address.')
  .pipe(z.email('Please enter a valid email address.'));

/** `PUT …/cart` with `{"cart": Address}`. */
export const addressPayload = z
  .object({
    cart: z.object(
      {
        first_name: required('First name'),
        last_name: required('Last name'),
        email,
        address_line1: required('Address', 200),
        address_line2: z
          .string()
          .trim()
          .max(200, 'Address line 2 must be at most 200 characters.')
          .optional()
          .default(''),
        city: required('City'),
        country: z
          .string({ error: 'Country is required.' })
          .trim()
          .toUpperCase()
          .regex(/^[A-Z]{2}$/, 'Country must be a two-letter country code.'),
        state: required('State'),
        zip: required('Zip', 20),
        phone: z.string().trim().max(32, 'Phone must be at most 32 characters.').optional().default(''),
      },
      { error: 'Cart address is required.' },
    ),
  })
  .meta({ id: 'AddressPayload' });
export type AddressPayload = z.input<typeof addressPayload>;

export const giftCardPayload = z
  .object({
    gift_card: z.object(
      { code: z.string({ error: 'Gift card code is required.' }).trim().min(1, 'Gift card code is required.') },
      { error: 'Gift card is required.' },
    ),
  })
  .meta({ id: 'GiftCardPayload' });
export type GiftCardPayload = z.input<typeof giftCardPayload>;

/** The remove call's body is optional; when present the code must be a string. */
export const removeGiftCardPayload = z
  .object({ gift_card: z.object({ code: z.string().optional() }).optional() })
  .meta({ id: 'RemoveGiftCardPayload' });

// ---------------------------------------------------------------- checkout

/** `payment_intent_id` is omitted when gift cards cover the total. */
export const finalizePayload = z
  .object({
    payment_intent_id: z
      .string()
      .trim()
      .min(1)
      .max(255, 'Payment intent id is not valid.')
      .regex(/^[A-Za-z0-9_]+$/, 'Payment intent id is not valid.')
      .optional(),
  })
  .meta({ id: 'FinalizePayload' });
export type FinalizePayload = z.input<typeof finalizePayload>;

/** The test card processor's confirm call: the development stand-in for Stripe.js confirmCardPayment. */
export const confirmCardPayload = z
  .object({
    card: z.object(
      {
        number: z
          .string({ error: 'Card number is required.' })
          .trim()
          .min(1, 'Card number is required.')
          .max(40, 'Your card number is incorrect.'),
        exp_month: z.coerce
          .number({ error: 'Expiry month is not valid.' })
          .int('Expiry month is not valid.')
          .min(1, 'Expiry month is not valid.')
          .max(12, 'Expiry month is not valid.'),
        exp_year: z.coerce
          .number({ error: 'Expiry year is not valid.' })
          .int('Expiry year is not valid.')
          .min(0, 'Expiry year is not valid.')
          .max(2200, 'Expiry year is not valid.'),
        cvc: z
          .string({ error: 'CVC is required.' })
          .trim()
          .regex(/^\d{3,4}$/, "Your card's security code is incorrect."),
      },
      { error: 'Card is required.' },
    ),
  })
  .meta({ id: 'ConfirmCardPayload' });

// ---------------------------------------------------------------- stores

export const customDomainQuery = z.object({
  custom_domain: z
    .string({ error: 'Custom domain is required.' })
    .trim()
    .toLowerCase()
    .min(1, 'Custom domain is required.')
    .max(253, 'Custom domain is too long.'),
});

export const verifyPayload = z
  .object({
    email: z
      .string({ error: 'Email is required.' })
      .trim()
      .toLowerCase()
      .max(254, 'Please enter a valid email address.')
      .pipe(z.email('Please enter a valid email address.')),
    browser_token: z
      .string()
      .trim()
      .min(8, 'Browser token must be 8 to 200 characters.')
      .max(200, 'Browser token must be 8 to 200 characters.')
      .regex(/^[\x21-\x7e]+$/, 'Browser token is not valid.')
      .optional(),
  })
  .meta({ id: 'VerifyPayload' });

// ---------------------------------------------------------------- catalog

const PAGE_MESSAGE = 'Page must be a whole number of at least 1.';
const PER_PAGE_MESSAGE = 'Per page must be a whole number from 1 to 500.';

/** `GET …/products` and `GET …/bundles`; every parameter is optional. */
export const listQuery = z.object({
  page: z.coerce.number({ error: PAGE_MESSAGE }).int(PAGE_MESSAGE).min(1, PAGE_MESSAGE).max(100_000).default(1),
  per_page: z.coerce
    .number({ error: PER_PAGE_MESSAGE })
    .int(PER_PAGE_MESSAGE)
    .min(1, PER_PAGE_MESSAGE)
    .max(500, PER_PAGE_MESSAGE)
    .default(48),
  sort: z
    .enum(['name', '-name', 'price', '-price'], { error: 'Sort must be one of name, -name, price, -price.' })
    .optional(),
  /** Case-insensitive text search in the name. */
  q: z.string().trim().max(100, 'Search text must be at most 100 characters.').optional(),
  featured: z.enum(['true', 'false'], { error: 'Featured must be true or false.' }).optional(),
});
export const LISTING_SORTS = ['featured', 'newest', 'name', '-name', 'price', '-price'] as const;
const PRICE_MESSAGE = 'must be an amount like 12.50.';
const priceBound = (name: string) =>
  z
    .string({ error: `${name} ${PRICE_MESSAGE}` })
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, `${name} ${PRICE_MESSAGE}`)
    .optional();
const OPTION_MESSAGE = 'Option must be a name and a value, like Size:M (at most 50 per request).';

/**
 * `…/listings`, `…/collections/{handle}/listings` and `…/search`: the list query with the shop's
 * filters (docs/decisions/192-listing-facets.md). `option=Size:M` may repeat: values of one option
 * are OR'ed, different options AND'ed.
 */
const listingFields = listQuery.extend({
  sort: z.enum(LISTING_SORTS, { error: `Sort must be one of ${LISTING_SORTS.join(', ')}.` }).optional(),
  in_stock: z.enum(['true', 'false'], { error: 'In stock must be true or false.' }).optional(),
  price_min: priceBound('Minimum price'),
  price_max: priceBound('Maximum price'),
  option: z
    .array(z.string({ error: OPTION_MESSAGE }).regex(/^[^:]{1,100}:.{1,100}$/su, OPTION_MESSAGE), {
      error: OPTION_MESSAGE,
    })
    .max(50, OPTION_MESSAGE)
    .optional(),
});

/** A minimum price above the maximum finds nothing by construction: a mistake, said as one. */
function priceRangeInOrder(
  q: { price_min?: string | undefined; price_max?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (q.price_min !== undefined && q.price_max !== undefined && Number(q.price_min) > Number(q.price_max)) {
    ctx.addIssue({
      code: 'custom',
      path: ['price_min'],
      message: 'Minimum price must not be above the maximum price.',
    });
  }
}

export const listingQuery = listingFields.superRefine(priceRangeInOrder);

/** `…/search`: the listing query with the words to find (docs/decisions/191-search-engine.md); no sort means best match first. */
export const searchQuery = listingFields
  .extend({
    q: z
      .string({ error: 'Search text is required.' })
      .trim()
      .min(1, 'Search text is required.')
      .max(100, 'Search text must be at most 100 characters.'),
  })
  .superRefine(priceRangeInOrder);

/** The storefront's view of the search query. */
export type SearchQuery = ListingQuery & { q: string };

/** A product or bundle list's query: `fields=id` lists each item's id and type alone (extension, docs/api.md). */
export const catalogListQuery = listQuery.extend({
  fields: z.enum(['id'], { error: 'Fields must be id.' }).optional(),
});

/** The storefront's view of the list query: numbers and a boolean, as it builds them. */
export type ListQuery = {
  page?: number;
  per_page?: number;
  sort?: z.infer<typeof listQuery>['sort'];
  q?: string;
  featured?: boolean;
};

/** The storefront's view of the listing query: the list query with the shop's filters. */
export type ListingQuery = Omit<ListQuery, 'sort'> & {
  sort?: (typeof LISTING_SORTS)[number];
  in_stock?: boolean;
  price_min?: string;
  price_max?: string;
  /** `Name:Value`, e.g. `Size:M`. */
  option?: string[];
};

const ID = '[1-9]\\d{0,8}'; // as record ids are in paths

/** Up to MAX_BULK_IDS record ids separated by commas, each once. */
const idList = (message: string) =>
  z
    .string({ error: message })
    .regex(new RegExp(`^${ID}(,${ID}){0,${MAX_BULK_IDS - 1}}$`), message)
    .transform((ids) => [...new Set(ids.split(',').map(Number))]);

/** `…/product_variants?product_ids=1,2,3` (extension): the variants of many products in one call. */
export const productIdsQuery = z.object({
  product_ids: idList(`Product ids must be 1 to ${MAX_BULK_IDS} product ids separated by commas.`),
});

/** `…/bundle_items?bundle_ids=1,2,3` (extension): the items of many bundles in one call. */
export const bundleIdsQuery = z.object({
  bundle_ids: idList(`Bundle ids must be 1 to ${MAX_BULK_IDS} bundle ids separated by commas.`),
});

// ---------------------------------------------------------------- development

const OUTBOX_LIMIT_MESSAGE = 'limit must be 1 to 50.';

/** `GET /dev/outbox`: mail that never left the machine (never in production, never with SMTP_URL). */
export const outboxQuery = z.object({
  to: z
    .string({ error: 'to is required.' })
    .trim()
    .toLowerCase()
    .max(254, 'to must be an email address.')
    .pipe(z.email('to must be an email address.')),
  limit: z.coerce
    .number({ error: OUTBOX_LIMIT_MESSAGE })
    .int(OUTBOX_LIMIT_MESSAGE)
    .min(1, OUTBOX_LIMIT_MESSAGE)
    .max(50, OUTBOX_LIMIT_MESSAGE)
    .default(10),
});

// ---------------------------------------------------------------- console (docs/decisions/197-operator-auth.md)

const operatorEmail = z
  .string({ error: 'Email is required.' })
  .trim()
  .toLowerCase()
  .max(254, 'Please enter a valid email address.')
  .pipe(z.email('Please enter a valid email address.'));

export const OPERATOR_ROLES = ['owner', 'editor'] as const;
const operatorRole = z.enum(OPERATOR_ROLES, { error: 'Role must be owner or editor.' });

/** `{"email":"…"}`: mail me a sign-in link. */
export const signInRequestPayload = z.object({ email: operatorEmail });

/** `{"token":"…"}`: the token of an emailed sign-in link. */
export const signInConfirmPayload = z.object({
  token: z
    .string({ error: 'This sign-in link is not valid.' })
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,100}$/, 'This sign-in link is not valid.'),
});

/** `{"email":"…","role":"editor"}`: invite someone to a store's staff. */
export const inviteOperatorPayload = z.object({ email: operatorEmail, role: operatorRole });

/** `{"role":"owner"}`: change a staff member's role. */
export const changeRolePayload = z.object({ role: operatorRole });

/** `?page=N` of the audit log. */
export const auditQuery = z.object({
  page: z.coerce
    .number({ error: 'Page must be a whole number from 1.' })
    .int('Page must be a whole number from 1.')
    .min(1, 'Page must be a whole number from 1.')
    .max(100_000, 'Page must be a whole number from 1.')
    .default(1),
});

// ---------------------------------------------------------------- console orders (docs/decisions/198-console-orders.md)

export const ORDER_STATUS_FILTERS = ['paid', 'partially_refunded', 'refunded', 'fulfilled', 'unfulfilled'] as const;
const DATE_MESSAGE = 'Enter a date as YYYY-MM-DD.';
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: DATE_MESSAGE, abort: true })
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), DATE_MESSAGE);
/** An empty field in a form's query string means "no filter". */
const blankAsAbsent = (value: unknown) => (value === '' ? undefined : value);

/** `GET …/orders?q=&status=&from=&to=&email=&number=&page=`: every filter optional, all of them combined. */
export const consoleOrdersQuery = z
  .object({
    /** Order number, email or name, in part. */
    q: z.preprocess(blankAsAbsent, z.string().trim().max(100, 'Search at most 100 characters.').optional()),
    status: z.preprocess(
      blankAsAbsent,
      z
        .enum(ORDER_STATUS_FILTERS, {
          error: 'Status must be paid, partially_refunded, refunded, fulfilled or unfulfilled.',
        })
        .optional(),
    ),
    from: z.preprocess(blankAsAbsent, day.optional()),
    to: z.preprocess(blankAsAbsent, day.optional()),
    email: z.preprocess(blankAsAbsent, z.string().trim().toLowerCase().max(254, 'Email is too long.').optional()),
    number: z.preprocess(
      blankAsAbsent,
      z
        .string()
        .trim()
        .regex(/^(?:A-)?\d{1,9}$/i, 'Order numbers look like A-10042.')
        .optional(),
    ),
    page: auditQuery.shape.page,
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ['to'],
    message: 'The end date must be on or after the start date.',
  });

const AMOUNT_MESSAGE = 'Enter an amount like 12.50.';

/** `{"amount":"12.50","restock":["line id"],"idempotency_key":"…"}`: refund part or all of an order. */
export const refundOrderPayload = z.object({
  amount: z
    .string({ error: AMOUNT_MESSAGE })
    .trim()
    .regex(/^\d{1,9}(?:\.\d{1,2})?$/, { message: AMOUNT_MESSAGE, abort: true })
    .refine((value) => Number(value) > 0, 'The amount must be more than 0.00.'),
  /** Order lines whose stock comes back. */
  restock: z
    .array(z.string({ error: 'Choose lines of this order.' }).max(100), { error: 'Choose lines of this order.' })
    .max(500, 'Choose lines of this order.')
    .default([]),
  /** One per refund the operator means: the same key again is the same refund, never a second one. */
  idempotency_key: z
    .string({ error: 'idempotency_key is required.' })
    .regex(/^[A-Za-z0-9_-]{8,100}$/, 'idempotency_key must be 8 to 100 letters, digits, - or _.'),
});

/** `{"carrier":"UPS","tracking_number":"1Z999AA10123456784"}`: the order left the store. */
export const fulfilOrderPayload = z.object({
  carrier: z
    .string({ error: 'Carrier is required.' })
    .trim()
    .min(1, 'Carrier is required.')
    .max(60, 'Carrier must be at most 60 characters.'),
  tracking_number: z
    .string({ error: 'Tracking number is required.' })
    .trim()
    .min(1, 'Tracking number is required.')
    .max(100, 'Tracking number must be at most 100 characters.')
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'Tracking numbers hold letters, digits, spaces and dashes.'),
});
// ---------------------------------------------------------------- console: catalog and gift cards
// (docs/decisions/199-console-catalog-and-gift-cards.md)

/** The most a price, a gift card or a gift card adjustment may be: $999,999.99. */
const MAX_AMOUNT_CENTS = 99_999_999;
const EDIT_PRICE_MESSAGE = 'Price must be an amount like 12.50, from 0.00 to 999999.99.';
const AMOUNT = /^\d{1,6}(?:\.\d{1,2})?$/;
const SIGNED_AMOUNT = /^[+-]?\d{1,6}(?:\.\d{1,2})?$/;

/** "12.5" → 1250: an amount typed in a form, as integer cents. */
const toCents = (value: string) => {
  const [whole = '0', fraction = ''] = value.replace(/^[+-]/, '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return value.startsWith('-') ? -cents : cents;
};

const price = z
  .string({ error: EDIT_PRICE_MESSAGE })
  .trim()
  .regex(AMOUNT, EDIT_PRICE_MESSAGE)
  .transform(toCents)
  .pipe(z.number().max(MAX_AMOUNT_CENTS, EDIT_PRICE_MESSAGE));

const pageOf = (message: string) =>
  z.coerce.number({ error: message }).int(message).min(1, message).max(100_000, message).default(1);

/** `?q=…&page=N` of the console's product list: q matches names and SKUs. */
export const consoleProductsQuery = z.object({
  q: z.string().trim().max(100, 'Search must be at most 100 characters.').default(''),
  page: pageOf('Page must be a whole number from 1.'),
});

const POSITION_MESSAGE = 'Position must be a whole number from 0 to 100000.';
/**
 * Where a product, bundle or collection stands in the store's order: lower first. One field, one rule and
 * one message for all three (docs/decisions/206-console-collections-and-bundles.md).
 */
const position = z
  .number({ error: POSITION_MESSAGE })
  .int(POSITION_MESSAGE)
  .min(0, POSITION_MESSAGE)
  .max(100_000, POSITION_MESSAGE);
const featured = z.boolean({ error: 'Featured must be true or false.' });
/** The version a console form was opened at: a save made from an older one is refused (409). */
const formVersion = z
  .number({ error: 'Version is required.' })
  .int('Version is required.')
  .min(1, 'Version is required.');
const descriptionHtml = z
  .string({ error: 'Description must be text.' })
  .max(20_000, 'Description must be at most 20000 characters.');

/**
 * The product edit form: `version` is the one the form was opened at (a stale save is 409); the
 * description is sanitised as the import does; each listed variant gets its price. Stock is not here:
 * it moves by adjustments, so a stale form can never undo another editor's count.
 */
export const productEditPayload = z
  .object({
    version: formVersion,
    name: required('Name', 200),
    description_html: descriptionHtml,
    featured,
    position,
    variants: z
      .array(z.object({ id: recordId('Variant'), price }), { error: 'Variants are required.' })
      .max(500, 'At most 500 variants.'),
  })
  .meta({ id: 'ProductEditPayload' });
export type ProductEditPayload = z.input<typeof productEditPayload>;

/** Alt text of a product image: what a screen reader says instead of the picture (empty: flagged in the console). */
export const ALT_MAX = 300;
const altText = z
  .string({ error: 'Alt text must be text.' })
  .trim()
  .max(ALT_MAX, `Alt text must be at most ${ALT_MAX} characters.`);

/** The text fields of an image upload (`multipart/form-data`; the file itself is the `file` part). */
export const imageUploadFields = z
  .object({
    alt: altText.default(''),
  })
  .meta({ id: 'ImageUploadFields' });

/**
 * A change to one product image: its alt text, its place in the gallery (0 first; moved there, the
 * others keep their order), and whether it is the product's default image. At least one of them.
 */
export const productImageEditPayload = z
  .object({
    alt: altText.optional(),
    position: z
      .number({ error: 'Position must be a whole number from 0.' })
      .int('Position must be a whole number from 0.')
      .min(0, 'Position must be a whole number from 0.')
      .max(10_000, 'Position must be a whole number from 0.')
      .optional(),
    default: z
      .literal(true, { error: 'Default can only be set (to true): choose another image to change it.' })
      .optional(),
  })
  .refine((edit) => edit.alt !== undefined || edit.position !== undefined || edit.default !== undefined, {
    message: 'Say what to change: alt, position or default.',
    path: ['alt'],
  })
  .meta({ id: 'ProductImageEditPayload' });
export type ProductImageEditPayload = z.input<typeof productImageEditPayload>;

export const STOCK_REASONS = ['received', 'correction', 'damaged', 'other'] as const;
const CHANGE_MESSAGE = 'Change must be a whole number from -100000 to 100000, not 0 (e.g. 5 or -2).';
const NOTE_MAX = 500;
const note = z
  .string({ error: 'Note must be text.' })
  .trim()
  .max(NOTE_MAX, `Note must be at most ${NOTE_MAX} characters.`)
  .default('');

/** A relative stock change of one variant (`+5`, `-2`), with its reason; "other" needs a note. */
export const stockAdjustmentPayload = z
  .object({
    variant_id: recordId('Variant'),
    change: z
      .number({ error: CHANGE_MESSAGE })
      .int(CHANGE_MESSAGE)
      .min(-100_000, CHANGE_MESSAGE)
      .max(100_000, CHANGE_MESSAGE)
      .refine((n) => n !== 0, CHANGE_MESSAGE),
    reason: z.enum(STOCK_REASONS, { error: 'Choose a reason: received, correction, damaged or other.' }),
    note,
  })
  .refine((a) => a.reason !== 'other' || a.note !== '', {
    message: 'Say what happened when the reason is “other”.',
    path: ['note'],
  })
  .meta({ id: 'StockAdjustmentPayload' });
export type StockAdjustmentPayload = z.input<typeof stockAdjustmentPayload>;

/** A variant's SKU, name and option values (by option name), with the import's rules, trimmed. */
const variantFields = {
  sku: z.string({ error: 'SKU is required.' }).trim().pipe(variantSku),
  name: z.string({ error: 'Variant name is required.' }).trim().pipe(variantName),
  options: z.record(optionName, z.string({ error: 'Option value is required.' }).trim().pipe(optionValue), {
    error: 'Options must give each option’s value, e.g. {"Size": "M"}.',
  }),
};
const STARTING_STOCK_MESSAGE = `Starting stock must be a whole number from 0 to ${MAX_VARIANT_STOCK}.`;
const startingStock = z
  .number({ error: STARTING_STOCK_MESSAGE })
  .int(STARTING_STOCK_MESSAGE)
  .min(0, STARTING_STOCK_MESSAGE)
  .max(MAX_VARIANT_STOCK, STARTING_STOCK_MESSAGE)
  .default(0);

/**
 * A new variant of a product: its option values must name each of the product's options, differ from
 * every other variant's, and its SKU be new in the store (checked by the API). Its starting stock is
 * recorded as a stock adjustment ("received").
 */
export const variantAddPayload = z
  .object({
    version: formVersion,
    ...variantFields,
    price,
    stock: startingStock,
  })
  .meta({ id: 'VariantAddPayload' });
export type VariantAddPayload = z.input<typeof variantAddPayload>;

/** A product's option names (Size, Color …), by the import's rules. */
const optionNames = z
  .array(z.string({ error: 'Option name is required.' }).trim().pipe(optionName), {
    error: 'Option names are required.',
  })
  .max(10, 'At most 10 options.');

/** An option named twice is refused at its second place. */
function refuseNamesTwice(names: readonly string[], ctx: z.RefinementCtx): void {
  for (const [i, name] of names.entries())
    if (names.indexOf(name) < i)
      ctx.addIssue({ code: 'custom', path: ['option_names', i], message: VARIANT_MESSAGES.nameTwice });
}

/**
 * The product's options and every variant on sale at once: renaming, adding or removing an option
 * changes each variant's values with it, so they are saved together. Each option name once, each SKU
 * once, each variant with a value for every option and a combination of its own.
 */
export const productVariantsPayload = z
  .object({
    version: formVersion,
    option_names: optionNames,
    variants: z
      .array(z.object({ id: recordId('Variant'), ...variantFields }), { error: 'Variants are required.' })
      .min(1, 'A product keeps at least one variant.')
      .max(500, 'At most 500 variants.'),
  })
  .superRefine((form, ctx) => {
    refuseNamesTwice(form.option_names, ctx);
    for (const [i, variant] of form.variants.entries()) {
      for (const [name, message] of Object.entries(optionProblems(form.option_names, variant.options)))
        ctx.addIssue({ code: 'custom', path: ['variants', i, 'options', name], message });
      const earlier = form.variants.slice(0, i);
      if (earlier.some((other) => other.sku === variant.sku))
        ctx.addIssue({ code: 'custom', path: ['variants', i, 'sku'], message: VARIANT_MESSAGES.skuTwice });
      const twin = earlier.find((other) => sameCombination(form.option_names, other.options, variant.options));
      if (twin)
        ctx.addIssue({
          code: 'custom',
          path: ['variants', i, 'options'],
          message: VARIANT_MESSAGES.sameValues(twin.sku),
        });
    }
  })
  .meta({ id: 'ProductVariantsPayload' });
export type ProductVariantsPayload = z.input<typeof productVariantsPayload>;

/**
 * A new product: its name, description (sanitised as the import does), options, and its first variant
 * (a value for each option, a SKU new in the store, a price, a starting stock logged as received).
 */
export const productCreatePayload = z
  .object({
    name: required('Name', 200),
    description_html: z
      .string({ error: 'Description must be text.' })
      .max(20_000, 'Description must be at most 20000 characters.')
      .default(''),
    option_names: optionNames.default([]),
    variant: z.object({ ...variantFields, price, stock: startingStock }, { error: 'The first variant is required.' }),
  })
  .superRefine((form, ctx) => {
    refuseNamesTwice(form.option_names, ctx);
    for (const [name, message] of Object.entries(optionProblems(form.option_names, form.variant.options)))
      ctx.addIssue({ code: 'custom', path: ['variant', 'options', name], message });
  })
  .meta({ id: 'ProductCreatePayload' });
export type ProductCreatePayload = z.input<typeof productCreatePayload>;

/** `?version=N` of a variant's or a product's removal: the version the page was opened at. */
export const variantRemovalQuery = z.object({
  version: z.coerce
    .number({ error: 'Version is required.' })
    .int('Version is required.')
    .min(1, 'Version is required.'),
});

/** Putting an archived product back on sale: the version its page was opened at. */
export const productRestorePayload = z.object({ version: formVersion }).meta({ id: 'ProductRestorePayload' });

const CARD_AMOUNT_MESSAGE = 'Amount must be an amount like 25.00, from 0.01 to 10000.00.';
/** The most one gift card may hold: $10,000.00. */
export const MAX_GIFT_CARD_CENTS = 1_000_000;

/** Issue a gift card with its initial balance; the code is made by the server. */
export const issueGiftCardPayload = z
  .object({
    amount: z
      .string({ error: CARD_AMOUNT_MESSAGE })
      .trim()
      .regex(AMOUNT, CARD_AMOUNT_MESSAGE)
      .transform(toCents)
      .pipe(z.number().min(1, CARD_AMOUNT_MESSAGE).max(MAX_GIFT_CARD_CENTS, CARD_AMOUNT_MESSAGE)),
    note,
  })
  .meta({ id: 'IssueGiftCardPayload' });

const ADJUST_MESSAGE = 'Change must be an amount like 5.00 or -5.00, not 0.';
/** A relative balance change (`5.00`, `-5.00`) with the reason in a note. */
export const giftCardAdjustmentPayload = z
  .object({
    change: z
      .string({ error: ADJUST_MESSAGE })
      .trim()
      .regex(SIGNED_AMOUNT, ADJUST_MESSAGE)
      .transform(toCents)
      .pipe(
        z
          .number()
          .min(-MAX_GIFT_CARD_CENTS, ADJUST_MESSAGE)
          .max(MAX_GIFT_CARD_CENTS, ADJUST_MESSAGE)
          .refine((n) => n !== 0, ADJUST_MESSAGE),
      ),
    note: z
      .string({ error: 'Say why the balance changes.' })
      .trim()
      .min(1, 'Say why the balance changes.')
      .max(NOTE_MAX, `Note must be at most ${NOTE_MAX} characters.`),
  })
  .meta({ id: 'GiftCardAdjustmentPayload' });

/** Disabling a card: an optional note for the ledger. */
export const disableGiftCardPayload = z.object({ note }).meta({ id: 'DisableGiftCardPayload' });

/** `?page=N` of the console's gift cards. */
export const consoleGiftCardsQuery = z.object({ page: pageOf('Page must be a whole number from 1.') });

// ---------------------------------------------------------------- console store settings
// (docs/decisions/203-console-store-settings.md)

/**
 * The settings form, every field, by the catalog import's own rules (store-settings.ts); `version` is the
 * one the form was opened at (a stale save is 409).
 */
export const storeSettingsPayload = z
  .object({ version: z.number({ error: 'Version is required.' }).int().min(1), ...storeSettingsFields })
  .meta({ id: 'StoreSettingsPayload' });
export type StoreSettingsPayload = z.input<typeof storeSettingsPayload>;

// ---------------------------------------------------------------- console: collections and bundles
// (docs/decisions/206-console-collections-and-bundles.md)

const HANDLE_MESSAGE =
  'Handle must be lower-case letters, digits and hyphens, starting with a letter or digit (at most 63).';
/**
 * A collection's fields as both the catalog import and the console accept them: the handle is a path
 * segment (`/collections/{handle}`), so it has a store slug's grammar; the description is plain text.
 */
export const collectionFields = {
  handle: z.string({ error: HANDLE_MESSAGE }).trim().regex(SLUG_PATTERN, HANDLE_MESSAGE),
  title: required('Title', 100),
  description: z
    .string({ error: 'Description must be text.' })
    .trim()
    .max(2000, 'Description must be at most 2000 characters.'),
};

/** A new collection; without a position it goes after the store's last one. */
export const collectionCreatePayload = z
  .object({
    ...collectionFields,
    description: collectionFields.description.default(''),
    position: position.optional(),
  })
  .meta({ id: 'CollectionCreatePayload' });
export type CollectionCreatePayload = z.input<typeof collectionCreatePayload>;

/** The collection edit form, saved with the version it was opened at (a stale save is 409). */
export const collectionEditPayload = z
  .object({ version: formVersion, ...collectionFields, position })
  .meta({ id: 'CollectionEditPayload' });
export type CollectionEditPayload = z.input<typeof collectionEditPayload>;

const MEMBER_MESSAGE = 'Choose either a product or a bundle.';
/**
 * A collection's members in their new order, each a product or a bundle of the store, once: adding,
 * removing and reordering are all this one call, made from the version the page shows.
 */
export const collectionItemsPayload = z
  .object({
    version: formVersion,
    items: z
      .array(
        z
          .object(
            { product_id: recordId('Product').optional(), bundle_id: recordId('Bundle').optional() },
            { error: MEMBER_MESSAGE },
          )
          .refine((item) => (item.product_id === undefined) !== (item.bundle_id === undefined), MEMBER_MESSAGE),
        { error: 'Items are required.' },
      )
      .max(10_000, 'A collection holds at most 10000 items.'),
  })
  .superRefine((payload, ctx) => {
    const seen = new Set<string>();
    for (const [i, item] of payload.items.entries()) {
      const key = item.product_id !== undefined ? `product:${item.product_id}` : `bundle:${item.bundle_id}`;
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, item.product_id !== undefined ? 'product_id' : 'bundle_id'],
          message: 'This is in the collection already.',
        });
      seen.add(key);
    }
  })
  .meta({ id: 'CollectionItemsPayload' });
export type CollectionItemsPayload = z.input<typeof collectionItemsPayload>;

const BUNDLE_QUANTITY_MESSAGE = 'Quantity must be a whole number from 1 to 99.';
/** A bundle's items: variants of the store, each once, with a quantity (as the import takes them). */
const bundleItems = z
  .array(
    z.object(
      {
        variant_id: recordId('Variant'),
        quantity: z
          .number({ error: BUNDLE_QUANTITY_MESSAGE })
          .int(BUNDLE_QUANTITY_MESSAGE)
          .min(1, BUNDLE_QUANTITY_MESSAGE)
          .max(99, BUNDLE_QUANTITY_MESSAGE),
      },
      { error: 'Each item needs a variant and a quantity.' },
    ),
    { error: 'Items are required.' },
  )
  .min(1, 'A bundle needs at least one item.')
  .max(50, 'A bundle holds at most 50 items.')
  .superRefine((items, ctx) => {
    const seen = new Set<number>();
    for (const [i, item] of items.entries()) {
      if (seen.has(item.variant_id))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'variant_id'],
          message: 'This variant is in the bundle already: change its quantity instead.',
        });
      seen.add(item.variant_id);
    }
  });

const bundleFields = {
  name: required('Name', 200),
  description_html: descriptionHtml,
  featured,
  position,
  items: bundleItems,
};

/** A new bundle; without a position it goes after the store's last one. Its price is its items' prices times their quantities: there is no price of its own. */
export const bundleCreatePayload = z
  .object({
    ...bundleFields,
    description_html: descriptionHtml.default(''),
    featured: featured.default(false),
    position: position.optional(),
  })
  .meta({ id: 'BundleCreatePayload' });
export type BundleCreatePayload = z.input<typeof bundleCreatePayload>;

/** The bundle edit form with its items, saved with the version it was opened at (a stale save is 409). */
export const bundleEditPayload = z.object({ version: formVersion, ...bundleFields }).meta({ id: 'BundleEditPayload' });
export type BundleEditPayload = z.input<typeof bundleEditPayload>;

/** `?q=…&page=N` of the console's bundle list: q matches names. */
export const consoleBundlesQuery = z.object(consoleProductsQuery.shape);

// ---------------------------------------------------------------- console: a restricted store's access lists
// (docs/decisions/204-recipients-and-domain-tokens.md)

/** `{"email":"…"}`: list someone as an allowed recipient and mail them their link. */
export const addRecipientPayload = z.object({ email: operatorEmail }).meta({ id: 'AddRecipientPayload' });

/** `?q=…&page=N` of the allowed recipients: q matches part of an address. */
export const recipientsQuery = z.object({
  q: z.string().trim().toLowerCase().max(254, 'Search must be at most 254 characters.').default(''),
  page: pageOf('Page must be a whole number from 1.'),
});

/** The CSV import (`multipart/form-data`): the `file` part is the whole of it. */
export const recipientImportFields = z.object({}).meta({ id: 'RecipientImportFields' });

/** `{"label":"…"}`: a new domain token; the label only tells tokens apart on the page. */
export const domainTokenPayload = z
  .object({
    label: z
      .string({ error: 'Label must be text.' })
      .trim()
      .max(100, 'Label must be at most 100 characters.')
      .default(''),
  })
  .meta({ id: 'DomainTokenPayload' });

// ---------------------------------------------------------------- publishing (docs/decisions/208-preview-and-live-build.md)

/**
 * A build's start: `go_live` false renders it to `ready` only (a preview); `full` renders every page instead of
 * only those a change touches (docs/decisions/211-incremental-builds.md). The body may be empty (go live, incremental).
 */
export const startBuildPayload = z
  .object({
    go_live: z.boolean({ error: 'go_live must be true or false.' }).default(true),
    full: z.boolean({ error: 'full must be true or false.' }).default(false),
  })
  .meta({ id: 'StartBuildPayload' });

const QUIET_MESSAGE = 'The quiet period must be a whole number of seconds from 5 to 3600.';
/** A store's auto-publish: on or off, and the quiet period after the last catalog change. */
export const autoPublishPayload = z
  .object({
    enabled: z.boolean({ error: 'enabled must be true or false.' }),
    quiet_seconds: z
      .number({ error: QUIET_MESSAGE })
      .int({ error: QUIET_MESSAGE })
      .min(5, { error: QUIET_MESSAGE })
      .max(3600, { error: QUIET_MESSAGE }),
  })
  .meta({ id: 'AutoPublishPayload' });
