/** − / quantity / + for a cart entry; the quantity field commits on blur or Enter. */
import { useState } from 'react';

export type QuantityStepperProps = {
  /** What is counted, for the accessible names ("Quantity of Mug"). */
  label: string;
  quantity: number;
  onChange: (quantity: number) => void;
};

export function QuantityStepper({ label, quantity, onChange }: QuantityStepperProps) {
  const [draft, setDraft] = useState(String(quantity));
  // A new quantity from the cart replaces the draft while rendering (React's "adjusting state when a prop changes").
  const [seenQuantity, setSeenQuantity] = useState(quantity);
  if (seenQuantity !== quantity) {
    setSeenQuantity(quantity);
    setDraft(String(quantity));
  }

  const commit = () => {
    const next = Number.parseInt(draft, 10);
    if (Number.isInteger(next) && next >= 1 && next !== quantity) onChange(next);
    else setDraft(String(quantity));
  };

  return (
    <div className="quantity" role="group" aria-label={`Quantity of ${label}`}>
      <button
        type="button"
        aria-label={`Decrease quantity of ${label}`}
        disabled={quantity <= 1}
        onClick={() => onChange(quantity - 1)}
      >
        −
      </button>
      <input
        type="number"
        inputMode="numeric"
        min={1}
        aria-label={`Quantity of ${label}`}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <button type="button" aria-label={`Increase quantity of ${label}`} onClick={() => onChange(quantity + 1)}>
        +
      </button>
    </div>
  );
}
