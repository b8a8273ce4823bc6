/**
 * Where one checkout field sits, named as stores/checkout.ts names it, so a refused Place order can
 * move focus there (focusField). `display: contents`: the slot adds no box to the layout.
 */
import type { ReactNode } from 'react';
import type { CheckoutField } from '../../lib/checkout-rules.ts';

export function FieldSlot({ name, children }: { name: CheckoutField; children: ReactNode }) {
  return (
    <div className="checkout__slot" data-field={name}>
      {children}
    </div>
  );
}

/** Moves focus to a field's control: its first focusable element (a Stripe iframe included). */
export function focusField(field: CheckoutField, root: ParentNode = document): void {
  const slot = root.querySelector(`[data-field="${field}"]`);
  slot?.querySelector<HTMLElement>('input, select, textarea, button, iframe, [tabindex]')?.focus();
}
