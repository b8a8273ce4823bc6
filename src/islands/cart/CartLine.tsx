/** One product line of the cart: image, name, unit price, quantity stepper, line price, remove. */
import type { CartItem } from '../../lib/contract/answers.ts';
import { itemTitle } from '../../lib/item-title.ts';
import { formatCurrency } from '../../lib/money.ts';
import { QuantityStepper } from './QuantityStepper.tsx';
import { ItemImage } from './ItemImage.tsx';

export type CartLineProps = {
  item: CartItem;
  productHref: string;
  onQuantity: (quantity: number) => void;
  onRemove: () => void;
};

export function CartLine({ item, productHref, onQuantity, onRemove }: CartLineProps) {
  const { name, image } = item.product_details;
  const title = itemTitle(item.product_details);
  return (
    <li className="cart-entry" data-testid="cart-line">
      <ItemImage image={image} alt={name} />
      <div className="cart-entry__body">
        <a className="cart-entry__name" href={productHref}>
          {title}
        </a>
        <span className="cart-entry__unit">{formatCurrency(item.unit_price)} each</span>
        <QuantityStepper label={title} quantity={item.quantity} onChange={onQuantity} />
      </div>
      <div className="cart-entry__end">
        <span className="cart-entry__price">{formatCurrency(item.price)}</span>
        <button type="button" className="link-button" aria-label={`Remove ${title}`} onClick={onRemove}>
          Remove
        </button>
      </div>
    </li>
  );
}
