/**
 * The cart page island: grouped entries (spec §3), quantity/remove/clear, gift cards and the
 * amounts. The page HTML is the same for every shopper (it may be a static snapshot); the cart
 * itself is always fetched here, in the browser.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { groupCartItems } from '../../lib/bundle-grouping.ts';
import { storeLinks } from '../../lib/store-links.ts';
import { $cart, changeQuantity, clearCart, loadCart, removeLine } from '../../stores/cart.ts';
import { BundleLine } from './BundleLine.tsx';
import { LoadingSkeleton } from './LoadingSkeleton.tsx';
import { CartLine } from './CartLine.tsx';
import { CartSummary } from './CartSummary.tsx';
import { GiftCards } from './GiftCards.tsx';
import { useHydrated } from '../use-hydrated.ts';
import { useStoreContext } from '../use-store-context.ts';

export type CartViewProps = {
  slug: string;
  /** '/acme' by slug, '' on a custom domain. */
  linkBase: string;
};

export default function CartView({ slug, linkBase }: CartViewProps) {
  useStoreContext(slug, linkBase);
  const loadedCart = useStore($cart);
  const cart = useHydrated() ? loadedCart : null;
  const [clearing, setClearing] = useState(false);
  // Clearing cannot be undone, so it asks first (and the answer takes focus).
  const [confirmingClear, setConfirmingClear] = useState(false);
  const links = storeLinks(linkBase);
  const entries = useMemo(() => groupCartItems(cart?.cartItems ?? []), [cart]);

  useEffect(() => {
    // The shell may have fetched the cart already; fetch it when nobody has.
    if ($cart.get() === null) void loadCart(slug);
  }, [slug]);

  if (cart === null) {
    return <LoadingSkeleton label="Loading your cart…" />;
  }

  if (entries.length === 0) {
    return (
      <div className="cart cart--empty">
        <p>Your cart is empty.</p>
        <a className="button" href={links.shop}>
          Continue shopping
        </a>
      </div>
    );
  }

  const onClear = async () => {
    setClearing(true);
    await clearCart(slug);
    setClearing(false);
    setConfirmingClear(false);
  };

  return (
    <div className="cart">
      <div className="cart__main">
        <ul className="cart__entries" aria-label="Cart items">
          {entries.map((entry) =>
            entry.type === 'bundle' ? (
              <BundleLine
                key={entry.key}
                entry={entry}
                bundleHref={links.bundle(entry.bundleId)}
                onQuantity={(quantity) => void changeQuantity(entry.items[0]!.id, quantity)}
                onRemove={() => void removeLine(entry.items[0]!.id)}
              />
            ) : (
              <CartLine
                key={entry.key}
                item={entry.item}
                productHref={links.product(entry.item.product_details.product_id)}
                onQuantity={(quantity) => void changeQuantity(entry.item.id, quantity)}
                onRemove={() => void removeLine(entry.item.id)}
              />
            ),
          )}
        </ul>
        {confirmingClear ? (
          <div className="cart__clear cart__clear-confirm" role="group" aria-labelledby="clear-cart-question">
            <p id="clear-cart-question">Remove every item from your cart?</p>
            <button
              type="button"
              className="button"
              ref={(node) => node?.focus()}
              onClick={() => void onClear()}
              disabled={clearing}
            >
              Yes, clear cart
            </button>
            <button type="button" className="link-button" onClick={() => setConfirmingClear(false)}>
              Keep items
            </button>
          </div>
        ) : (
          <button type="button" className="link-button cart__clear" onClick={() => setConfirmingClear(true)}>
            Clear cart
          </button>
        )}
      </div>
      <aside className="cart__side">
        <GiftCards giftCards={cart.giftCards} />
        <CartSummary amounts={cart} priced={cart.address !== null} freeShippingThreshold={cart.freeShippingThreshold} />
        <a className="button button--primary cart__checkout" href={links.checkout}>
          Checkout
        </a>
      </aside>
    </div>
  );
}
