/**
 * What a form that emails a link shows once it is sent (the restricted store's access form, the
 * console's sign-in): the same words whether or not the address is known, taking the focus so a
 * screen reader reads them, and a way back to correct the address.
 */
import { useEffect, useRef, type ReactNode } from 'react';

type LinkSentProps = {
  heading: string;
  /** What happens next, naming the address (`<strong>`). */
  children: ReactNode;
  onAnotherAddress: () => void;
  className?: string;
};

export function LinkSent({ heading, children, onAnotherAddress, className }: LinkSentProps) {
  const confirmation = useRef<HTMLDivElement>(null);
  useEffect(() => confirmation.current?.focus(), []);
  return (
    <div ref={confirmation} tabIndex={-1} role="status" className={className}>
      <h2>{heading}</h2>
      <p>{children}</p>
      <button type="button" className="button" onClick={onAnotherAddress}>
        Use another email address
      </button>
    </div>
  );
}
