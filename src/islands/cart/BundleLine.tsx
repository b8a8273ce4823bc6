/** A bundle entry: its images, its items, the total summed from item prices, one quantity, one remove. */
import { type BundleEntry } from '../../lib/bundle-grouping.ts';
import { itemLabel } from '../../lib/item-title.ts';
import { formatCurrency } from '../../lib/money.ts';
import { ItemImage } from './ItemImage.tsx';
import { QuantityStepper } from './QuantityStepper.tsx';

export type BundleLineProps = {
  entry: BundleEntry;
  bundleHref: string;
  onQuantity: (quantity: number) => void;
  onRemove: () => void;
};

export function BundleLine({ entry, bundleHref, onQuantity, onRemove }: BundleLineProps) {
  const images =
    entry.images.length > 0
      ? entry.images.slice(0, 3)
      : entry.items
          .map((item) => item.product_details.image)
          .filter((i) => i !== null)
          .slice(0, 3);
  return (
    <li className="cart-entry cart-entry--bundle" data-testid="cart-bundle">
      <div className="cart-entry__images">
        {images.length === 0 ? (
          <ItemImage image={null} alt={entry.name} />
        ) : (
          images.map((image) => <ItemImage key={image.id} image={image} alt={entry.name} />)
        )}
      </div>
      <div className="cart-entry__body">
        <a className="cart-entry__name" href={bundleHref}>
          {entry.name}
        </a>
        <span className="cart-entry__badge">Bundle</span>
        <ul className="cart-entry__items" aria-label={`Items in ${entry.name}`}>
          {entry.items.map((item) => (
            <li key={item.id}>
              {itemLabel(item)}
              <span className="cart-entry__item-price">{formatCurrency(item.price)}</span>
            </li>
          ))}
        </ul>
        <QuantityStepper label={entry.name} quantity={entry.quantity} onChange={onQuantity} />
      </div>
      <div className="cart-entry__end">
        <span className="cart-entry__price">{formatCurrency(entry.total)}</span>
        <button type="button" className="link-button" aria-label={`Remove ${entry.name}`} onClick={onRemove}>
          Remove
        </button>
      </div>
    </li>
  );
}
