/**
 * The checkout's rules over its flags (spec §3, §4, §5): when the card form is valid, when an
 * order request is 'sending', and when the pay button may be pressed.
 */

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

export type PlaceOrderInput = {
  flags: CheckoutFlags;
  addressValid: boolean;
  /** False when gift cards cover the total: then no card is asked for. */
  requiresPayment: boolean;
  cartEmpty: boolean;
};

/** The pay button is enabled only with a valid address, a valid card (when one is needed) and nothing in flight. */
export function canPlaceOrder({ flags, addressValid, requiresPayment, cartEmpty }: PlaceOrderInput): boolean {
  if (cartEmpty || !addressValid || isSending(flags)) return false;
  return requiresPayment ? isCardValid(flags) : true;
}
