/** − / quantity / + for a cart entry; the quantity field commits on blur or Enter. */
import { useEffect, useState } from 'react';

export interface QuantityStepperProps {
  /** What is counted, for the accessible names ("Quantity of Mug"). */
  label: string;
  quantity: number;
  onChange: (quantity: number) => void;
}

export function QuantityStepper({ label, quantity, onChange }: QuantityStepperProps) {
  const [draft, setDraft] = useState(String(quantity));
  useEffect(() => setDraft(String(quantity)), [quantity]);

  const commit = () => {
    const next = Number.parseInt(draft, 10);
    if (Number.isInteger(next) && next >= 1 && next !== quantity) onChange(next);
    else setDraft(String(quantity));
  };

  return (
    <div className="quantity" role="group" aria-label={`Quantity of ${label}`}>
      <button type="button" aria-label={`Decrease quantity of ${label}`} disabled={quantity <= 1} onClick={() => onChange(quantity - 1)}>−</button>
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
      <button type="button" aria-label={`Increase quantity of ${label}`} onClick={() => onChange(quantity + 1)}>+</button>
    </div>
  );
}
