/** The checkout's right column: the grouped items and the amounts (tax and shipping once the address is saved). */
import type { Cart } from '../../lib/contract/answers.ts';
import { groupCartItems } from '../../lib/bundle-grouping.ts';
import { itemLabel } from '../../lib/item-title.ts';
import { formatCurrency } from '../../lib/money.ts';
import { CartSummary } from '../cart/CartSummary.tsx';
import { ItemImage } from '../cart/ItemImage.tsx';

export function OrderSummary({ cart }: { cart: Cart }) {
  const entries = groupCartItems(cart.cartItems);
  return (
    <aside className="checkout__summary">
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
    </aside>
  );
}
