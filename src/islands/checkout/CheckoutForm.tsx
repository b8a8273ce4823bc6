/**
 * The checkout page island (client only), one page and one action: contact and shipping address
 * (saved in the background as it changes, after which tax and shipping show), the card form, the
 * pay button and the order summary. A Place order with something missing moves focus to the first
 * field that needs the shopper. State and actions live in stores/checkout.ts; placing the order
 * runs lib/payment-flow.ts.
 */
import { useStore } from '@nanostores/react';
import { CardCvcElement, CardExpiryElement, CardNumberElement, Elements, useElements } from '@stripe/react-stripe-js';
import type { StripeCardNumberElement, StripeElements } from '@stripe/stripe-js';
import { useEffect, type ReactNode } from 'react';
import { storeLinks } from '../../lib/store-links.ts';
import { $cart } from '../../stores/cart.ts';
import {
  $cardName,
  $checkoutReady,
  $payError,
  $paymentProvider,
  $placedOrder,
  $sending,
  loadCardProvider,
  placeOrder,
  refusePlaceOrder,
  setCardName,
  startCheckout,
  startFromCart,
} from '../../stores/checkout.ts';
import { focusField } from './FieldSlot.tsx';
import { useStoreContext } from '../use-store-context.ts';
import { AddressForm } from './AddressForm.tsx';
import { CardForm } from './CardForm.tsx';
import { OrderSummary } from './OrderSummary.tsx';
import { PlaceOrderButton } from './PlaceOrderButton.tsx';
import { TestModeBadge } from './TestModeBadge.tsx';
import { LoadingSkeleton } from '../cart/LoadingSkeleton.tsx';

export type CheckoutFormProps = {
  slug: string;
  linkBase: string;
  /** PUBLIC_STRIPE_PUBLISHABLE_KEY; without it the test-mode stand-in takes the card. */
  publishableKey?: string | undefined;
};

export default function CheckoutForm({ slug, linkBase, publishableKey }: CheckoutFormProps) {
  useStoreContext(slug, linkBase);
  const links = storeLinks(linkBase);
  const cart = useStore($cart);
  const sending = useStore($sending);
  const ready = useStore($checkoutReady);
  const cardName = useStore($cardName);
  const provider = useStore($paymentProvider);
  const payError = useStore($payError);
  const placedOrder = useStore($placedOrder);

  useEffect(() => {
    void startCheckout(slug);
  }, [slug]);

  useEffect(() => {
    if (cart) startFromCart(cart);
  }, [cart]);

  const requiresPayment = cart?.requiresPayment ?? false;
  useEffect(() => {
    if (requiresPayment) loadCardProvider(publishableKey);
  }, [requiresPayment, publishableKey]);

  useEffect(() => {
    if (placedOrder) window.location.assign(storeLinks(linkBase).orderConfirmation(placedOrder));
  }, [placedOrder, linkBase]);

  // Without a publishable key the card goes to the built-in test processor (load-stripe.ts): say so.
  const frame = (content: ReactNode) => (
    <>
      {publishableKey ? null : <TestModeBadge />}
      {content}
    </>
  );

  if (placedOrder)
    return frame(
      <p className="checkout__loading" role="status">
        Order placed. Taking you to your confirmation…
      </p>,
    );
  if (cart === null || !ready) return frame(<LoadingSkeleton label="Loading checkout…" lines={1} />);
  if (cart.cartItems.length === 0) {
    return frame(
      <div className="checkout checkout--empty">
        <p>Your cart is empty.</p>
        <a className="button" href={links.shop}>
          Continue shopping
        </a>
      </div>,
    );
  }

  /** Places the order, or moves focus to the first field it is refused for (every field then says why). */
  const place = (elements: StripeElements | null, card: StripeCardNumberElement | null) => {
    const field = refusePlaceOrder();
    if (!field) return void placeOrder(slug, card);
    const stripeElement =
      field in CARD_ELEMENTS ? elements?.getElement(CARD_ELEMENTS[field as CardElementField]) : null;
    if (stripeElement) stripeElement.focus();
    else focusField(field);
  };

  return frame(
    <div className="checkout">
      <OrderSummary cart={cart} />
      <div className="checkout__main">
        <AddressForm slug={slug} />
        <section className="checkout__payment" aria-label="Payment">
          {requiresPayment ? (
            provider.kind === 'ready' ? (
              <Elements stripe={provider.stripe}>
                <CardForm name={cardName} onName={setCardName} disabled={sending} />
                <CardPayButton total={cart.total} sending={sending} onPlace={place} />
              </Elements>
            ) : (
              <p role={provider.kind === 'failed' ? 'alert' : 'status'}>
                {provider.kind === 'failed' ? provider.message : 'Loading the card form…'}
              </p>
            )
          ) : (
            <>
              <p className="checkout__covered">Your gift cards cover the total. No card is needed.</p>
              <PlaceOrderButton total={cart.total} enabled sending={sending} onPlace={() => place(null, null)} />
            </>
          )}
          {payError ? (
            <p className="checkout__error" role="alert">
              {payError}
            </p>
          ) : null}
        </section>
      </div>
    </div>,
  );
}

const CARD_ELEMENTS = { cardNumber: CardNumberElement, cardExpiry: CardExpiryElement, cardCvc: CardCvcElement };
type CardElementField = keyof typeof CARD_ELEMENTS;

/** The pay button inside <Elements>, so it can hand the card elements to the flow. */
function CardPayButton({
  total,
  sending,
  onPlace,
}: {
  total: string;
  sending: boolean;
  onPlace: (elements: StripeElements | null, card: StripeCardNumberElement | null) => void;
}) {
  const elements = useElements();
  return (
    <PlaceOrderButton
      total={total}
      enabled={elements !== null}
      sending={sending}
      onPlace={() => onPlace(elements, elements?.getElement(CardNumberElement) ?? null)}
    />
  );
}
