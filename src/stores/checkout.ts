/**
 * The checkout flags of spec §3 ($checkout) and the rules read from them. The card form sets
 * the five validity flags; the payment flow (lib/payment-flow.ts) sets the three progress flags.
 */
import { computed, map } from 'nanostores';
import {
  initialCheckoutFlags,
  isCardValid,
  isSending,
  type CardFlag,
  type CheckoutFlags,
  type ProgressFlag,
} from '../lib/checkout-rules.ts';

export const $checkout = map<CheckoutFlags>({ ...initialCheckoutFlags });

/** Card valid only when all five card flags are true (spec §4). */
export const $cardValid = computed($checkout, isCardValid);

/** The order request is 'sending' (spec §4): the pay button is locked and shows progress. */
export const $sending = computed($checkout, isSending);

/** Records whether one card field is valid. */
export function setCardFlag(flag: CardFlag, valid: boolean): void {
  if ($checkout.get()[flag] !== valid) $checkout.setKey(flag, valid);
}

/** Records a step of the order request starting or ending. */
export function setProgress(flag: ProgressFlag, on: boolean): void {
  $checkout.setKey(flag, on);
}

/** Back to nothing entered and nothing in flight (a fresh checkout page). */
export function resetCheckout(): void {
  $checkout.set({ ...initialCheckoutFlags });
}
