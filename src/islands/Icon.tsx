/** An icon in an island, through the one loader (lib/icon-loader.ts); decorative, so hidden from assistive tech. */
import { useEffect, useRef } from 'react';
import { mountIcon } from '../lib/icon-loader.ts';
import '../styles/icons.css';

export type IconName = 'cart' | 'chevron-down' | 'close' | 'error' | 'info' | 'success';

export function Icon({ name, className }: { name: IconName; className?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (ref.current) void mountIcon(ref.current);
  }, [name]);
  return <span ref={ref} className={className ? `icon ${className}` : 'icon'} data-icon={name} aria-hidden="true" />;
}
