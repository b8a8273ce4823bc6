/** Subtotal, tax, shipping, each applied gift card and the total (spec §9 formatting). */
import { summaryRows, type Amounts } from '../../lib/cart-summary.ts';

export type CartSummaryProps = {
  amounts: Amounts;
  /** Tax and shipping are known once an address is saved; before that they say so. */
  withAddress: boolean;
  heading?: string;
};

export function CartSummary({ amounts, withAddress, heading = 'Order summary' }: CartSummaryProps) {
  const rows = summaryRows(amounts, { withAddress });
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
    </section>
  );
}
