/**
 * The checkout's order summary: the grouped items and the amounts (tax and shipping once the address
 * is saved). The right column on wide screens; on a phone it comes first, collapsed to its total,
 * and opens on tap.
 */
import { useId, useState } from 'react';
import type { Cart } from '../../lib/contract/answers.ts';
import { groupCartItems } from '../../lib/bundle-grouping.ts';
import { itemLabel } from '../../lib/item-title.ts';
import { formatCurrency } from '../../lib/money.ts';
import { CartSummary } from '../cart/CartSummary.tsx';
import { ItemImage } from '../cart/ItemImage.tsx';

export function OrderSummary({ cart }: { cart: Cart }) {
  const entries = groupCartItems(cart.cartItems);
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  return (
    <aside className={open ? 'checkout__summary checkout__summary--open' : 'checkout__summary'}>
      {/* Shown on phones only (CSS); wide screens always show the body. */}
      <button
        type="button"
        className="checkout__summary-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
      >
        <span>{open ? 'Hide order summary' : 'Show order summary'}</span>
        <span className="checkout__summary-total">{formatCurrency(cart.total)}</span>
      </button>
      <div id={bodyId} className="checkout__summary-body">
        <ul className="order-items" aria-label="Items in your order">
          {entries.map((entry) =>
            entry.type === 'bundle' ? (
              <li key={entry.key} className="order-items__entry">
                <ItemImage image={entry.images[0] ?? null} alt={entry.name} />
                <div>
                  <span className="order-items__name">
                    {entry.quantity} × {entry.name}
                  </span>
                  <ul className="order-items__bundle">
                    {entry.items.map((item) => (
                      <li key={item.id}>{itemLabel(item)}</li>
                    ))}
                  </ul>
                </div>
                <span className="order-items__price">{formatCurrency(entry.total)}</span>
              </li>
            ) : (
              <li key={entry.key} className="order-items__entry">
                <ItemImage image={entry.item.product_details.image} alt={entry.item.product_details.name} />
                <span className="order-items__name">{itemLabel(entry.item)}</span>
                <span className="order-items__price">{formatCurrency(entry.item.price)}</span>
              </li>
            ),
          )}
        </ul>
        <CartSummary amounts={cart} priced={cart.address !== null} freeShippingThreshold={cart.freeShippingThreshold} />
      </div>
    </aside>
  );
}
