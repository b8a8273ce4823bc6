/**
 * The checkout page island (client only): contact and shipping address (saved with PUT cart,
 * after which tax and shipping show), the card form, the pay button and the order summary.
 * State and actions live in stores/checkout.ts; placing the order runs lib/payment-flow.ts.
 */
import { useStore } from '@nanostores/react';
import { CardNumberElement, Elements, useElements } from '@stripe/react-stripe-js';
import type { StripeCardNumberElement } from '@stripe/stripe-js';
import { useEffect, type ReactNode } from 'react';
import { canPlaceOrder } from '../../lib/checkout-rules.ts';
import { storeLinks } from '../../lib/store-links.ts';
import { $cart } from '../../stores/cart.ts';
import {
  $addressSaved,
  $addressValid,
  $cardHolder,
  $checkout,
  $checkoutReady,
  $payError,
  $paymentProvider,
  $placedOrder,
  $sending,
  loadCardProvider,
  placeOrder,
  setCardEmail,
  setCardName,
  startCheckout,
  startFromCart,
} from '../../stores/checkout.ts';
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
  const flags = useStore($checkout);
  const sending = useStore($sending);
  const ready = useStore($checkoutReady);
  const addressValid = useStore($addressValid);
  const saved = useStore($addressSaved);
  const cardHolder = useStore($cardHolder);
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

  const enabled =
    canPlaceOrder({
      flags,
      addressValid: addressValid && saved,
      requiresPayment,
      cartEmpty: cart.cartItems.length === 0,
    }) &&
    (!requiresPayment || provider.kind === 'ready');
  const hint = !saved ? 'Save your address to see tax and shipping.' : null;

  return frame(
    <div className="checkout">
      <div className="checkout__main">
        <AddressForm slug={slug} />
        <section className="checkout__payment" aria-label="Payment">
          {requiresPayment ? (
            provider.kind === 'ready' ? (
              <Elements stripe={provider.stripe}>
                <CardForm
                  name={cardHolder.name}
                  email={cardHolder.email}
                  onName={setCardName}
                  onEmail={setCardEmail}
                  disabled={sending}
                />
                <CardPayButton
                  total={cart.total}
                  enabled={enabled}
                  sending={sending}
                  onPlace={(card) => void placeOrder(slug, card)}
                />
              </Elements>
            ) : (
              <p role={provider.kind === 'failed' ? 'alert' : 'status'}>
                {provider.kind === 'failed' ? provider.message : 'Loading the card form…'}
              </p>
            )
          ) : (
            <>
              <p className="checkout__covered">Your gift cards cover the total. No card is needed.</p>
              <PlaceOrderButton
                total={cart.total}
                enabled={enabled}
                sending={sending}
                onPlace={() => void placeOrder(slug, null)}
              />
            </>
          )}
          {hint ? <p className="checkout__hint">{hint}</p> : null}
          {payError ? (
            <p className="checkout__error" role="alert">
              {payError}
            </p>
          ) : null}
        </section>
      </div>
      <OrderSummary cart={cart} />
    </div>,
  );
}

/** The pay button inside <Elements>, so it can hand the card element to the flow. */
function CardPayButton({
  total,
  enabled,
  sending,
  onPlace,
}: {
  total: string;
  enabled: boolean;
  sending: boolean;
  onPlace: (card: StripeCardNumberElement | null) => void;
}) {
  const elements = useElements();
  return (
    <PlaceOrderButton
      total={total}
      enabled={enabled && elements !== null}
      sending={sending}
      onPlace={() => onPlace(elements?.getElement(CardNumberElement) ?? null)}
    />
  );
}
