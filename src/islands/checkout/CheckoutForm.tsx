/**
 * The checkout page island (client only), one page and one action: contact and shipping address
 * (saved in the background as it changes, after which tax and shipping show), the card form, the
 * pay button and the order summary. A Place order with something missing moves focus to the first
 * field that needs the shopper. State and actions live in stores/checkout.ts; placing the order
 * runs lib/payment-flow.ts.
 */
import { useStore } from '@nanostores/react';
import type { StripeCardNumberElement } from '@stripe/stripe-js';
import { useEffect, useState, type ReactNode } from 'react';
import type { CheckoutField } from '../../lib/checkout-rules.ts';
import { storeLinks } from '../../lib/store-links.ts';
import { $cart } from '../../stores/cart.ts';
import {
  $cardName,
  $checkoutReady,
  $payError,
  $paymentProvider,
  $placedOrder,
  $sending,
  CARD_FORM_FAILED,
  loadCardProvider,
  placeOrder,
  refusePlaceOrder,
  startCheckout,
  startFromCart,
} from '../../stores/checkout.ts';
import { focusField } from './FieldSlot.tsx';
import { useStoreContext } from '../use-store-context.ts';
import { AddressForm } from './AddressForm.tsx';
import type { CardPayment as CardPaymentComponent } from './CardPayment.tsx';
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

type CardPaymentState =
  { kind: 'loading' } | { kind: 'ready'; CardPayment: typeof CardPaymentComponent } | { kind: 'failed' };

/**
 * The card half (Stripe Elements, card form, pay button) is a chunk of its own, loaded from mount on,
 * beside the cart request and the payment provider (docs/decisions/195-lighter-checkout.md).
 */
function useCardPayment(): CardPaymentState {
  const [state, setState] = useState<CardPaymentState>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    import('./CardPayment.tsx').then(
      ({ CardPayment }) => {
        if (live) setState({ kind: 'ready', CardPayment });
      },
      (error: unknown) => {
        console.error(new Error('The card form could not be loaded', { cause: error }));
        if (live) setState({ kind: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

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
  const cardPayment = useCardPayment();

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
  const place = (
    card: StripeCardNumberElement | null,
    focusCardField: (field: CheckoutField) => boolean = () => false,
  ) => {
    const field = refusePlaceOrder();
    if (!field) return void placeOrder(slug, card);
    if (!focusCardField(field)) focusField(field);
  };
  const cardFailed = provider.kind === 'failed' || cardPayment.kind === 'failed';

  return frame(
    <div className="checkout">
      <OrderSummary cart={cart} />
      <div className="checkout__main">
        <AddressForm slug={slug} />
        <section className="checkout__payment" aria-label="Payment">
          {requiresPayment ? (
            provider.kind === 'ready' && cardPayment.kind === 'ready' ? (
              <cardPayment.CardPayment
                stripe={provider.stripe}
                cardName={cardName}
                total={cart.total}
                sending={sending}
                onPlace={place}
              />
            ) : (
              <p role={cardFailed ? 'alert' : 'status'}>{cardFailed ? CARD_FORM_FAILED : 'Loading the card form…'}</p>
            )
          ) : (
            <>
              <p className="checkout__covered">Your gift cards cover the total. No card is needed.</p>
              <PlaceOrderButton total={cart.total} enabled sending={sending} onPlace={() => place(null)} />
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
