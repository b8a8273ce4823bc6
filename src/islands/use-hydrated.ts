import { useEffect, useState } from 'react';

/**
 * False during the server render and the hydrating render, true afterwards. An island whose store
 * may already be filled by an earlier script (the shell loads the cart before React starts) must
 * render what the server rendered first, or React throws a hydration mismatch (#418).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
