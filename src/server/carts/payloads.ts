import { z } from 'zod';
import { MAX_QUANTITY } from '../domain/cart-math.ts';

export const QUANTITY_MESSAGE = `Quantity must be a whole number from 1 to ${MAX_QUANTITY}.`;

const quantity = z
  .number({ error: QUANTITY_MESSAGE })
  .int({ error: QUANTITY_MESSAGE })
  .min(1, { error: QUANTITY_MESSAGE })
  .max(MAX_QUANTITY, { error: QUANTITY_MESSAGE });

/** Record ids arrive as strings (api-types) or numbers; both name the same row. */
const recordId = (what: string) =>
  z
    .union([z.string().regex(/^[1-9]\d{0,8}$/), z.number().int().min(1).max(2_147_483_647)], {
      error: `${what} is not valid.`,
    })
    .transform(Number);

/** `{"cart_line_item":{"product_variant_id":ID,"quantity":N}}` or `{"cart_line_item":{"bundle_id":ID,"quantity":N}}`. */
export const addLineSchema = z.object({
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
});

export const changeQuantitySchema = z.object({
  cart_line_item: z.object({ quantity }, { error: 'Cart line item is required.' }),
});

const required = (name: string, max = 100) =>
  z
    .string({ error: `${name} is required.` })
    .trim()
    .min(1, `${name} is required.`)
    .max(max, `${name} must be at most ${max} characters.`);

/** `PUT …/cart` with `{"cart": Address}`; messages follow spec §5's defaults. */
export const addressSchema = z.object({
  cart: z.object(
    {
      first_name: required('First name'),
      last_name: required('Last name'),
      email: z
        .string({ error: 'Email is required.' })
        .trim()
        .min(1, 'Email is required.')
        .max(254, 'Please enter a valid email address.')
        .pipe(z.email('Please enter a valid email address.')),
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
});

export const giftCardSchema = z.object({
  gift_card: z.object(
    { code: z.string({ error: 'Gift card code is required.' }).trim().min(1, 'Gift card code is required.') },
    { error: 'Gift card is required.' },
  ),
});

/** The remove call's body is optional; when present the code must be a string. */
export const removeGiftCardSchema = z.object({
  gift_card: z.object({ code: z.string().optional() }).optional(),
});

export const finalizeSchema = z.object({
  payment_intent_id: z
    .string()
    .trim()
    .min(1)
    .max(255, 'Payment intent id is not valid.')
    .regex(/^[A-Za-z0-9_]+$/, 'Payment intent id is not valid.')
    .optional(),
});
