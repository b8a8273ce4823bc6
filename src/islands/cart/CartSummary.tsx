/** The one order summary: cart, checkout, confirmation and order page (spec §9 formatting). */
import { freeShippingHint, summaryRows, type Amounts } from '../../lib/cart-summary.ts';

export type CartSummaryProps = {
  amounts: Amounts;
  /** Tax and shipping are priced once an address is saved; before that they say so. */
  priced: boolean;
  /** A cart's threshold for "Add $X more for free shipping"; orders have none. */
  freeShippingThreshold?: string | null;
  heading?: string;
};

export function CartSummary({
  amounts,
  priced,
  freeShippingThreshold = null,
  heading = 'Order summary',
}: CartSummaryProps) {
  const rows = summaryRows(amounts, { priced });
  const hint = freeShippingHint(amounts.subTotal, freeShippingThreshold);
  return (
    <section className="cart-summary" aria-label={heading}>
      <h2 className="cart-summary__heading">{heading}</h2>
      <dl>
        {rows.map((row) => (
          <div
            key={row.key}
            className={`cart-summary__row cart-summary__row--${row.kind}`}
            data-testid={`summary-${row.kind}`}
          >
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
      {hint && (
        <p className="cart-summary__hint" data-testid="free-shipping-hint">
          {hint}
        </p>
      )}
    </section>
  );
}
