/**
 * The checkout's rules over its flags (spec §3, §4, §5): when the card form is valid, when an
 * order request is 'sending', and which field a Place order is refused for.
 */
import { ADDRESS_FIELDS, type AddressField } from './checkout-address.ts';

/** The checkout flags of spec §3. */
export type CheckoutFlags = {
  cardNumber: boolean;
  cardExpiry: boolean;
  cardCvc: boolean;
  cardName: boolean;
  cardEmail: boolean;
  gettingPaymentIntent: boolean;
  finalizingOrder: boolean;
  chargingCard: boolean;
};

export type CardFlag = 'cardNumber' | 'cardExpiry' | 'cardCvc' | 'cardName' | 'cardEmail';
export type ProgressFlag = 'gettingPaymentIntent' | 'finalizingOrder' | 'chargingCard';

export const initialCheckoutFlags: CheckoutFlags = {
  cardNumber: false,
  cardExpiry: false,
  cardCvc: false,
  cardName: false,
  cardEmail: false,
  gettingPaymentIntent: false,
  finalizingOrder: false,
  chargingCard: false,
};

/** Card valid only when number, expiry, cvc, name and email flags are all true (spec §4). */
export function isCardValid(flags: CheckoutFlags): boolean {
  return flags.cardNumber && flags.cardExpiry && flags.cardCvc && flags.cardName && flags.cardEmail;
}

/**
 * 'sending' while a payment intent is fetched, the card is charged or the order is finalised
 * (spec §4; charging sits between the two, so the button stays locked through it).
 */
export function isSending(flags: CheckoutFlags): boolean {
  return flags.gettingPaymentIntent || flags.finalizingOrder || flags.chargingCard;
}

/** Every field Place order checks, in the page's order: the address, then the card. */
export type CheckoutField = AddressField | Exclude<CardFlag, 'cardEmail'>;

/**
 * The card's own fields in the page's order. Its email flag (spec §3) has no field of its own: the
 * contact email, asked once, sets it.
 */
const CARD_FIELDS = ['cardNumber', 'cardExpiry', 'cardCvc', 'cardName'] as const;

export type PlaceOrderInput = {
  flags: CheckoutFlags;
  addressValidity: Partial<Record<AddressField, { valid: boolean }>>;
  /** False when gift cards cover the total: then no card is asked for. */
  requiresPayment: boolean;
};

/**
 * The field a Place order is refused for, where focus goes: the first invalid one on the page, or
 * null when the order may be placed.
 */
export function firstInvalidField({ flags, addressValidity, requiresPayment }: PlaceOrderInput): CheckoutField | null {
  const address = ADDRESS_FIELDS.find((field) => addressValidity[field]?.valid !== true);
  if (address) return address;
  return requiresPayment ? (CARD_FIELDS.find((field) => !flags[field]) ?? null) : null;
}
