/**
 * The checkout page island (client only): contact and shipping address (saved with PUT cart,
 * after which tax and shipping show), the card form, the pay button and the order summary.
 * Placing the order runs lib/payment-flow.ts; the flags of spec §3 live in $checkout.
 */
import { useStore } from '@nanostores/react';
import { CardNumberElement, Elements, useElements } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { publicApiBaseUrl } from '../../lib/api-client.ts';
import { ApiError } from '../../lib/api-error.ts';
import type { Address } from '../../lib/api-types.ts';
import { browserApi } from '../../lib/browser-api.ts';
import { canPlaceOrder } from '../../lib/checkout-rules.ts';
import { notificationFor } from '../../lib/error-catalogue.ts';
import { createPaymentFlow, type BillingDetails, type PaymentFlow, type PaymentProvider } from '../../lib/payment-flow.ts';
import { loadPaymentProvider } from '../../lib/payments/load-stripe.ts';
import { storeLinks } from '../../lib/store-links.ts';
import { $cart, loadCart, resetCart, setCart } from '../../stores/cart.ts';
import { $checkout, $sending, resetCheckout, setProgress } from '../../stores/checkout.ts';
import { notifyError } from '../../stores/notifications.ts';
import { useStoreContext } from '../cart/CartView.tsx';
import { AddressForm, type AddressField } from './AddressForm.tsx';
import { CardForm } from './CardForm.tsx';
import { OrderSummary } from './OrderSummary.tsx';
import { PlaceOrderButton } from './PlaceOrderButton.tsx';

export interface CheckoutFormProps {
  slug: string;
  linkBase: string;
  /** PUBLIC_STRIPE_PUBLISHABLE_KEY; without it the test-mode stand-in takes the card. */
  publishableKey?: string | undefined;
}

const EMPTY_ADDRESS: Address = {
  first_name: '', last_name: '', email: '', address_line1: '', address_line2: '', city: '', country: '', state: '', zip: '', phone: '',
};
const CHECKED_FIELDS: AddressField[] = ['first_name', 'last_name', 'email', 'address_line1', 'address_line2', 'city', 'country', 'state', 'zip', 'phone'];

function sameAddress(a: Address | null, b: Address): boolean {
  return a !== null && CHECKED_FIELDS.every((field) => a[field].trim() === b[field].trim());
}

/** 422 errors keyed by field ("cart.zip" or "zip") → our field names. */
function fieldErrors(error: unknown): Partial<Record<AddressField, string>> {
  if (!(error instanceof ApiError) || error.status !== 422 || !error.body?.errors) return {};
  const out: Partial<Record<AddressField, string>> = {};
  for (const [key, messages] of Object.entries(error.body.errors)) {
    const field = key.split('.').pop() as AddressField;
    if (CHECKED_FIELDS.includes(field) && messages[0]) out[field] = messages[0];
  }
  return out;
}

export default function CheckoutForm({ slug, linkBase, publishableKey }: CheckoutFormProps) {
  useStoreContext(slug, linkBase);
  const links = storeLinks(linkBase);
  const cart = useStore($cart);
  const flags = useStore($checkout);
  const sending = useStore($sending);

  const [address, setAddress] = useState<Address>(EMPTY_ADDRESS);
  const [savedAddress, setSavedAddress] = useState<Address | null>(null);
  const [validity, setValidity] = useState<Partial<Record<AddressField, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<AddressField, string>>>({});
  const [showErrors, setShowErrors] = useState(false);
  const [saving, setSaving] = useState(false);
  const [cardName, setCardName] = useState('');
  const [cardEmail, setCardEmail] = useState('');
  const [payError, setPayError] = useState<string | null>(null);
  const [placed, setPlaced] = useState(false);
  const [provider, setProvider] = useState<Stripe | null>(null);
  const [providerError, setProviderError] = useState<string | null>(null);
  const providerRef = useRef<PaymentProvider | null>(null);
  const flowRef = useRef<PaymentFlow | null>(null);
  // The form mounts once the cart is known, so fields that only take an initial value (phone) get the saved one.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    resetCheckout();
    void loadCart(slug);
  }, [slug]);

  // A cart that already carries an address (a second visit) starts from it, already saved.
  useEffect(() => {
    if (ready || !cart) return;
    setReady(true);
    if (cart.address) {
      setAddress(cart.address);
      setSavedAddress(cart.address);
      setCardEmail(cart.address.email);
    }
  }, [cart, ready]);

  const requiresPayment = cart?.requiresPayment ?? false;
  useEffect(() => {
    if (!requiresPayment || provider || providerError) return;
    let live = true;
    loadPaymentProvider({ publishableKey, apiBase: publicApiBaseUrl() }).then(
      (stripe) => {
        if (!live) return;
        providerRef.current = stripe as unknown as PaymentProvider;
        setProvider(stripe);
      },
      (error: unknown) => {
        console.error(error);
        if (live) setProviderError('The card form could not be loaded. Please check your connection and reload the page.');
      },
    );
    return () => {
      live = false;
    };
  }, [requiresPayment, provider, providerError, publishableKey]);

  flowRef.current ??= createPaymentFlow({
    api: { checkout: () => browserApi().checkout(slug), finalize: (payload) => browserApi().finalize(slug, payload) },
    provider: () => providerRef.current,
    onProgress: setProgress,
  });

  const onAddressChange = (field: AddressField, value: string) => {
    if (address[field] === value) return;
    // The receipt email follows the contact email until the shopper types another one.
    if (field === 'email' && (cardEmail === '' || cardEmail === address.email)) setCardEmail(value);
    setAddress((current) => ({ ...current, [field]: value }));
    setServerErrors((errors) => (errors[field] ? { ...errors, [field]: undefined } : errors));
  };
  const onValidity = useCallback((field: AddressField, valid: boolean) => {
    setValidity((current) => (current[field] === valid ? current : { ...current, [field]: valid }));
  }, []);

  const fieldsValid = CHECKED_FIELDS.every((field) => validity[field] === true);
  const saved = sameAddress(savedAddress, address);

  const saveAddress = async () => {
    setShowErrors(true);
    if (!fieldsValid || saving) return;
    setSaving(true);
    const snapshot = address;
    try {
      setCart(await browserApi().putAddress(slug, { cart: snapshot }));
      setSavedAddress(snapshot);
      setServerErrors({});
    } catch (error) {
      setServerErrors(fieldErrors(error));
      notifyError(error);
    } finally {
      setSaving(false);
    }
  };

  const place = async (card: unknown) => {
    const flow = flowRef.current;
    if (!flow) return;
    setPayError(null);
    const billing: BillingDetails = {
      name: cardName.trim() || `${address.first_name} ${address.last_name}`.trim(),
      email: (cardEmail || address.email).trim(),
      phone: address.phone,
      address: { line1: address.address_line1, line2: address.address_line2, city: address.city, state: address.state, postal_code: address.zip, country: address.country },
    };
    const outcome = await flow.placeOrder({ card, billing });
    switch (outcome.kind) {
      case 'ordered':
        setPlaced(true);
        // The server emptied the cart; the header count follows before the next page loads.
        resetCart();
        window.location.assign(links.orderConfirmation(outcome.order.orderDetails.id));
        break;
      case 'declined':
        setPayError(outcome.message);
        break;
      case 'needs-card':
        setPayError('Please enter your card details.');
        void loadCart(slug);
        break;
      case 'failed':
        setPayError(notificationFor(outcome.error).message);
        notifyError(outcome.error);
        void loadCart(slug);
        break;
      case 'ignored':
        break;
    }
  };

  if (placed) return <p className="checkout__loading" role="status">Order placed. Taking you to your confirmation…</p>;
  if (cart === null || !ready) return <p className="checkout__loading" role="status">Loading checkout…</p>;
  if (cart.cartItems.length === 0) {
    return (
      <div className="checkout checkout--empty">
        <p>Your cart is empty.</p>
        <a className="button" href={links.shop}>Continue shopping</a>
      </div>
    );
  }

  const enabled = canPlaceOrder({ flags, addressValid: fieldsValid && saved, requiresPayment, cartEmpty: cart.cartItems.length === 0 }) && (!requiresPayment || provider !== null);
  const hint = !saved ? 'Save your address to see tax and shipping.' : null;

  return (
    <div className="checkout">
      <div className="checkout__main">
        <AddressForm
          values={address}
          onChange={onAddressChange}
          onValidity={onValidity}
          errors={serverErrors}
          showErrors={showErrors}
          saving={saving}
          saved={saved}
          onSave={() => void saveAddress()}
        />
        <section className="checkout__payment" aria-label="Payment">
          {requiresPayment ? (
            provider ? (
              <Elements stripe={provider}>
                <CardForm name={cardName} email={cardEmail} onName={setCardName} onEmail={setCardEmail} disabled={sending} />
                <CardPayButton total={cart.total} enabled={enabled} sending={sending} onPlace={place} />
              </Elements>
            ) : (
              <p role={providerError ? 'alert' : 'status'}>{providerError ?? 'Loading the card form…'}</p>
            )
          ) : (
            <>
              <p className="checkout__covered">Your gift cards cover the total. No card is needed.</p>
              <PlaceOrderButton total={cart.total} enabled={enabled} sending={sending} onPlace={() => void place(null)} />
            </>
          )}
          {hint ? <p className="checkout__hint">{hint}</p> : null}
          {payError ? <p className="checkout__error" role="alert">{payError}</p> : null}
        </section>
      </div>
      <OrderSummary cart={cart} />
    </div>
  );
}

/** The pay button inside <Elements>, so it can hand the card element to the flow. */
function CardPayButton({ total, enabled, sending, onPlace }: { total: string; enabled: boolean; sending: boolean; onPlace: (card: unknown) => Promise<void> }) {
  const elements = useElements();
  return <PlaceOrderButton total={total} enabled={enabled && elements !== null} sending={sending} onPlace={() => void onPlace(elements?.getElement(CardNumberElement) ?? null)} />;
}
