import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import './forms.css';

/** The tooltip stays this long after the pointer or focus leaves (spec §9), so it can be reached. */
export const TOOLTIP_HIDE_DELAY_MS = 200;

export type TooltipProps = { text: string; children: ReactNode };

/** Shows `text` on hover or focus of its children; described by it for assistive tech. */
export function Tooltip({ text, children }: TooltipProps) {
  const id = `tooltip-${useId()}`;
  const [shown, setShown] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const show = () => {
    if (timer.current) clearTimeout(timer.current);
    setShown(true);
  };
  const hide = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setShown(false), TOOLTIP_HIDE_DELAY_MS);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return (
    // The events come from the focusable control inside; the wrapper only listens to show the bubble.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <span
      className="sf-tooltip"
      aria-describedby={id}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
      onKeyDown={(event) => event.key === 'Escape' && setShown(false)}
    >
      {children}
      <span id={id} role="tooltip" className="sf-tooltip__bubble" hidden={!shown}>
        {text}
      </span>
    </span>
  );
}
