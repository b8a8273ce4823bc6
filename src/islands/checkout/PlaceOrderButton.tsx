/** The pay button: 'Place order · $52.30'; locked and saying 'Placing order…' while the order request is sending. */
import { formatCurrency } from '../../lib/money.ts';

export type PlaceOrderButtonProps = {
  total: string;
  enabled: boolean;
  sending: boolean;
  onPlace: () => void;
};

export function PlaceOrderButton({ total, enabled, sending, onPlace }: PlaceOrderButtonProps) {
  return (
    <div className="place-order">
      <button
        type="button"
        className="button button--primary place-order__button"
        // While sending it is aria-disabled, not disabled: a disabled button would drop the keyboard focus.
        disabled={!enabled && !sending}
        aria-disabled={sending || undefined}
        aria-busy={sending}
        onClick={() => {
          if (!sending) onPlace();
        }}
      >
        {sending ? <span className="spinner" aria-hidden="true" /> : null}
        {sending ? 'Placing order…' : `Place order · ${formatCurrency(total)}`}
      </button>
      <p className="place-order__status" role="status" aria-live="polite">
        {sending ? 'Processing your order…' : ''}
      </p>
    </div>
  );
}
