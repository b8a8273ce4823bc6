/**
 * The card half of the checkout: Stripe's Elements around the card form and the pay button. A chunk
 * of its own, which CheckoutForm starts loading as it mounts, beside the cart request and the
 * payment provider, rather than inside the checkout's own script (docs/decisions/195-lighter-checkout.md).
 */
import { CardCvcElement, CardExpiryElement, CardNumberElement, Elements, useElements } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardNumberElement } from '@stripe/stripe-js';
import type { CheckoutField } from '../../lib/checkout-rules.ts';
import { setCardName } from '../../stores/checkout.ts';
import { CardForm } from './CardForm.tsx';
import { PlaceOrderButton } from './PlaceOrderButton.tsx';

/** Places the order with the card element; `focusCardField` moves focus into a refused Stripe field (false: not one). */
export type PlaceWithCard = (
  card: StripeCardNumberElement | null,
  focusCardField: (field: CheckoutField) => boolean,
) => void;

export type CardPaymentProps = {
  stripe: Stripe;
  cardName: string;
  total: string;
  sending: boolean;
  onPlace: PlaceWithCard;
};

export function CardPayment({ stripe, cardName, total, sending, onPlace }: CardPaymentProps) {
  return (
    <Elements stripe={stripe}>
      <CardForm name={cardName} onName={setCardName} disabled={sending} />
      <CardPayButton total={total} sending={sending} onPlace={onPlace} />
    </Elements>
  );
}

const CARD_ELEMENTS = { cardNumber: CardNumberElement, cardExpiry: CardExpiryElement, cardCvc: CardCvcElement };

/** The pay button inside <Elements>, so it can hand the card elements to the flow. */
function CardPayButton({ total, sending, onPlace }: { total: string; sending: boolean; onPlace: PlaceWithCard }) {
  const elements = useElements();
  const focusCardField = (field: CheckoutField) => {
    const element =
      field in CARD_ELEMENTS ? elements?.getElement(CARD_ELEMENTS[field as keyof typeof CARD_ELEMENTS]) : null;
    element?.focus();
    return Boolean(element);
  };
  return (
    <PlaceOrderButton
      total={total}
      enabled={elements !== null}
      sending={sending}
      onPlace={() => onPlace(elements?.getElement(CardNumberElement) ?? null, focusCardField)}
    />
  );
}
